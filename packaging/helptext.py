"""Reading gstcam's help text (`gstcam --help`, `gstcam help COMMAND`, `gstcam-virtual-camera --help`) into
sections, for generate-man and generate-completions: both are made from what the programs print."""

import os
import re
import subprocess

HEADER = re.compile(r"^([A-Z][A-Z ]*[A-Z])( \([^)]*\))?:(?: (.*))?$")


def run(program, *arguments):
    # The C locale keeps the help text the same whatever the builder's language settings are.
    environment = dict(os.environ, LC_ALL="C.UTF-8")
    return subprocess.run([program, *arguments], check=True, capture_output=True, text=True,
                          env=environment).stdout


def sections(help_text):
    """[(name, qualifier, inline text, lines)] in order; text before the first header is under name ''."""
    result = [["", "", "", []]]
    for line in help_text.rstrip("\n").split("\n"):
        match = HEADER.match(line)
        if match:
            result.append([match.group(1), (match.group(2) or "").strip(), match.group(3) or "", []])
        elif not line.strip() and result[-1][2]:
            # A one-line header (OVERVIEW: …, USAGE: …) ends at the first blank line; prose follows.
            result.append(["", "", "", []])
        else:
            result[-1][3].append(line)
    return result


def paragraphs(lines):
    """Runs of non-blank lines."""
    block = []
    for line in lines + [""]:
        if line.strip():
            block.append(line)
        elif block:
            yield block
            block = []


def description_column(lines):
    """Where the descriptions of a two-column list (OPTIONS, KEYS, COMMANDS) start: the most common column
    after a gap of two or more spaces in the item lines."""
    columns = {}
    for line in lines:
        match = re.match(r"^  \S.*?\S?(\s{2,})\S", line)
        if match:
            column = match.end(1)
            columns[column] = columns.get(column, 0) + 1
    return max(columns, key=columns.get) if columns else 0


def usage_lines(parts):
    for name, _, inline, lines in parts:
        if name == "USAGE":
            return [inline] + [line.strip() for line in lines if line.strip()]
    return []


def overview(parts):
    for name, _, inline, _ in parts:
        if name == "OVERVIEW":
            return inline
    return ""


def command_list(parts):
    """[(name, summary)] of the COMMANDS section of `gstcam --help`."""
    for name, _, _, lines in parts:
        if name == "COMMANDS":
            return [(line.split(None, 1)[0], line.split(None, 1)[1] if len(line.split(None, 1)) > 1 else "")
                    for line in lines if line.startswith("  ") and line.strip()]
    return []


def list_items(lines):
    """A two-column list (OPTIONS, KEYS, COMMANDS) as ("item", term, description) and, for an unindented line
    inside it (a note), ("note", text, ""). A term too long for its column has its description below it."""
    column = description_column(lines)
    items = []
    for line in lines:
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip(" "))
        if indent == 0:
            items.append(["note", line.strip(), ""])
        elif indent <= 2:
            if column and len(line) > column and line[column - 1] == " " and line[column] != " ":
                items.append(["item", line[:column].strip(), line[column:].strip()])
            else:
                items.append(["item", line.strip(), ""])
        elif items:
            items[-1][2] = (items[-1][2] + " " + line.strip()).strip()
    return items


def option_groups(term):
    """The options one list term names, each as (names, metavar or None): "-o, --output FILE" is one option
    with two names; "--width W, --height H" is two options."""
    groups, names = [], []
    for part in term.split(", "):
        words = part.split()
        if not words or not words[0].startswith("-"):
            continue
        names.append(words[0])
        if len(words) > 1:
            groups.append((names, " ".join(words[1:])))
            names = []
    if names:
        groups.append((names, None))
    return groups


def options(parts):
    """[(names, metavar, description)] of every OPTIONS section of one help text."""
    result = []
    for name, _, _, lines in parts:
        if name == "OPTIONS":
            for kind, term, description in list_items(lines):
                if kind == "item":
                    result += [(names, metavar, description) for names, metavar in option_groups(term)]
    return result
