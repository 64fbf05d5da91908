/// What a viewer must present when `gstcam serve` listens beyond this machine: a token, or a user name and
/// password. RTSP clients use digest authentication (a token is the password of the user "token"); the web
/// server takes HTTP basic authentication, `Authorization: Bearer TOKEN` or `?token=TOKEN`.
public enum ServeCredentials: Sendable, Equatable {
    case token(String)
    case user(name: String, password: String)

    /// `--token` and `--user` as gstcam takes them: a token, or USER:PASSWORD. Nil for an empty value or a
    /// user without a colon and password.
    public init?(token: String) {
        guard !token.isEmpty else { return nil }
        self = .token(token)
    }

    public init?(userAndPassword text: String) {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex, text.index(after: colon) != text.endIndex else { return nil }
        self = .user(name: String(text[..<colon]), password: String(text[text.index(after: colon)...]))
    }

    /// The user and password an RTSP client gives.
    var userAndPassword: (user: String, password: String) {
        switch self {
        case .token(let token): ("token", token)
        case let .user(name, password): (name, password)
        }
    }
}
