/// The five client error types the service documents, and any other type it serves (track and
/// recording events come through the same endpoint) kept by name.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EventType {
    Publish,
    Subscribe,
    Join,
    Disconnected,
    Connect,
    Other(String),
}

impl EventType {
    /// The five known types, in the order of the explorer's `1`-`5` toggles.
    pub const KNOWN: [EventType; 5] = [
        EventType::Publish,
        EventType::Subscribe,
        EventType::Join,
        EventType::Disconnected,
        EventType::Connect,
    ];

    pub fn from_name(name: &str) -> EventType {
        match name {
            "client.publish.failed" => EventType::Publish,
            "client.subscribe.failed" => EventType::Subscribe,
            "client.join.failed" => EventType::Join,
            "client.disconnected" => EventType::Disconnected,
            "client.connect.failed" => EventType::Connect,
            other => EventType::Other(other.to_string()),
        }
    }

    /// Reads a `--type` argument: a full type name or one of the short aliases.
    pub fn from_arg(arg: &str) -> Result<EventType, String> {
        let arg = arg.trim();
        for known in EventType::KNOWN {
            if arg.eq_ignore_ascii_case(known.alias()) || arg == known.name() {
                return Ok(known);
            }
        }
        // Other families (track.add.success, recording...) are named in full: they hold a dot.
        if arg.contains('.') && !arg.chars().any(char::is_whitespace) {
            return Ok(EventType::Other(arg.to_string()));
        }
        Err(format!(
            "unknown event type '{arg}': use publish, subscribe, join, disconnected, connect, or a full type name such as client.join.failed"
        ))
    }

    pub fn name(&self) -> &str {
        match self {
            EventType::Publish => "client.publish.failed",
            EventType::Subscribe => "client.subscribe.failed",
            EventType::Join => "client.join.failed",
            EventType::Disconnected => "client.disconnected",
            EventType::Connect => "client.connect.failed",
            EventType::Other(name) => name,
        }
    }

    /// The short alias, also the list's type column.
    pub fn alias(&self) -> &str {
        match self {
            EventType::Publish => "publish",
            EventType::Subscribe => "subscribe",
            EventType::Join => "join",
            EventType::Disconnected => "disconnected",
            EventType::Connect => "connect",
            EventType::Other(name) => name,
        }
    }

    /// The list's type column: at most ten columns. A name cut to fit says so: `track.add.`
    /// or `disconnect` would read as a whole name.
    pub fn short(&self) -> std::borrow::Cow<'_, str> {
        crate::text::cut(self.alias(), 10).into()
    }

    pub fn is_known(&self) -> bool {
        !matches!(self, EventType::Other(_))
    }

    /// The `action` the spec observed for this type.
    pub fn expected_action(&self) -> Option<&'static str> {
        match self {
            EventType::Publish => Some("PUBLISH"),
            EventType::Subscribe => Some("SUBSCRIBE"),
            EventType::Join => Some("JOIN"),
            EventType::Disconnected => Some("RECONNECT_SIGNAL"),
            EventType::Connect => Some("INIT"),
            EventType::Other(_) => None,
        }
    }
}

impl std::fmt::Display for EventType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
