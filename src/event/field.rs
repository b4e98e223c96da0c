//! The fields of an event that filters, groups and facets read: one table, so that a new field is
//! one row here and one arm in each reader (the store's rows and the dump's fast path), which the
//! compiler asks for.

/// A field of an event, read the same way by every source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Field {
    Room,
    Session,
    Peer,
    User,
    /// The top-level `type`.
    Type,
    /// `data.error_code`, a number.
    Code,
    ErrorName,
    Action,
    RoomName,
    UserName,
    Role,
    /// `data.domain`, else the agent's `domain`.
    Domain,
    Sdk,
    SdkVersion,
    Os,
    OsVersion,
    Device,
    /// The `env` of the agent's `string`.
    Env,
}

impl Field {
    pub const ALL: [Field; 18] = [
        Field::Room,
        Field::Session,
        Field::Peer,
        Field::User,
        Field::Type,
        Field::Code,
        Field::ErrorName,
        Field::Action,
        Field::RoomName,
        Field::UserName,
        Field::Role,
        Field::Domain,
        Field::Sdk,
        Field::SdkVersion,
        Field::Os,
        Field::OsVersion,
        Field::Device,
        Field::Env,
    ];

    /// The field's name in the event's JSON (`room_id`, `device_model`).
    pub fn json_name(self) -> &'static str {
        match self {
            Field::Type => "type",
            Field::Code => "error_code",
            Field::ErrorName => "error_name",
            Field::Action => "action",
            Field::Room => "room_id",
            Field::RoomName => "room_name",
            Field::Session => "session_id",
            Field::Peer => "peer_id",
            Field::User => "user_id",
            Field::UserName => "user_name",
            Field::Role => "role",
            Field::Domain => "domain",
            Field::Sdk => "sdk",
            Field::SdkVersion => "sdk_version",
            Field::Os => "os",
            Field::OsVersion => "os_version",
            Field::Device => "device_model",
            Field::Env => "env",
        }
    }

    /// The short name people type and read (`room`, `device`): the command line's flag
    /// (`--room`, `--sdk-version` with `_` as `-`), the explorer's `:` commands and its header.
    pub fn name(self) -> &'static str {
        match self {
            Field::Type => "type",
            Field::Code => "code",
            Field::ErrorName => "error",
            Field::Action => "action",
            Field::Room => "room",
            Field::RoomName => "room_name",
            Field::Session => "session",
            Field::Peer => "peer",
            Field::User => "user",
            Field::UserName => "user_name",
            Field::Role => "role",
            Field::Domain => "domain",
            Field::Sdk => "sdk",
            Field::SdkVersion => "sdk_version",
            Field::Os => "os",
            Field::OsVersion => "os_version",
            Field::Device => "device",
            Field::Env => "env",
        }
    }

    /// The field a short or JSON name names.
    pub fn named(name: &str) -> Option<Field> {
        let name = name.trim().replace('-', "_");
        Field::ALL
            .into_iter()
            .find(|f| f.name() == name || f.json_name() == name)
    }

    /// Whether the field holds a number (`error_code`) rather than a string.
    pub fn is_number(self) -> bool {
        self == Field::Code
    }
}

impl std::fmt::Display for Field {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_is_found_by_its_short_and_its_json_name() {
        for field in Field::ALL {
            assert_eq!(Field::named(field.name()), Some(field));
            assert_eq!(Field::named(field.json_name()), Some(field));
        }
        assert_eq!(Field::named("sdk-version"), Some(Field::SdkVersion));
        assert_eq!(Field::named("nope"), None);
        let mut names: Vec<&str> = Field::ALL.iter().map(|f| f.name()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), Field::ALL.len(), "short names are distinct");
    }
}
