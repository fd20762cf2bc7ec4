//! `named_enum!`: enums that scenarios and outputs spell as kebab-case words, with one list of
//! names for parsing, printing and error messages.

macro_rules! named_enum {
    ($(#[$meta:meta])* pub enum $name:ident { $($(#[$vmeta:meta])* $variant:ident = $text:literal,)+ }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum $name {
            $($(#[$vmeta])* $variant,)+
        }

        impl $name {
            pub const NAMES: &'static [&'static str] = &[$($text),+];
            /// Every choice, in the order of `NAMES`.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            pub fn parse(text: &str) -> Option<$name> {
                match text {
                    $($text => Some($name::$variant),)+
                    _ => None,
                }
            }

            pub fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)+
                }
            }
        }

        impl $crate::named::Named for $name {
            const NAMES: &'static [&'static str] = $name::NAMES;

            fn parse(text: &str) -> Option<$name> {
                $name::parse(text)
            }

            fn name(self) -> &'static str {
                $name::name(self)
            }
        }
    };
}

pub(crate) use named_enum;

/// A choice written as one of a few names (every `named_enum`), for readers and writers that
/// handle any of them.
pub trait Named: Sized + Copy {
    const NAMES: &'static [&'static str];
    fn parse(text: &str) -> Option<Self>;
    fn name(self) -> &'static str;
}
