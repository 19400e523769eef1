//! The machinery behind the registration list in `variant/mod.rs`: [`variants!`]
//! turns one line per variant into everything that names the variants at run time,
//! so that adding a variant adds one line there and no arm anywhere else.

/// Generates, from one line per variant,
///
/// ```text
/// /// Doc comment (of the VariantKind value and the AnyGame arm).
/// Kind = code => path::Type,
/// ```
///
/// (`path::Type` from the crate root; the type implements `Variant`):
///
/// - `VariantKind`, one value per line in the list's order, which is the order
///   `UCI_Variant` lists them; `code` is the value's discriminant, the byte that
///   network files and `datagen` records store (stable: a code is never reused,
///   and the compiler refuses two lines with the same one);
/// - `VariantKind::ALL`, `name` (the type's `Variant::NAME`), `code`, `from_code`
///   and `eval_blocks` (the type's `Variant::EVAL_BLOCKS`);
/// - a compile-time check that each type's `Variant::KIND` is its own line's value;
/// - `with_variant!` and `with_game!`, the dispatch from a run-time value to code
///   generic over the variant, instantiated once per variant;
/// - `for_each_variant!`, which hands the list to another macro (`game.rs` builds
///   `AnyGame` with it).
///
/// The generated `#[macro_export]` macros cannot be named by path inside this crate
/// (rustc's `macro_expanded_macro_exports_accessed_by_absolute_paths`), so
/// `lib.rs` declares `variant` first, with `#[macro_use]`, and the crate's modules
/// use them without a `use` line; other crates import them as `sapper::with_game`.
macro_rules! variants {
    ($($(#[doc = $doc:literal])* $Kind:ident = $code:literal => $($path:ident)::+,)+) => {
        variants!(@emit ($) $( ($(#[doc = $doc])*) $Kind $code ($($path)::+) )+);
    };
    // `$d` is a `$` token, so that the macros generated here can have their own
    // metavariables.
    (@emit ($d:tt) $( ($($attr:tt)*) $Kind:ident $code:literal ($($path:tt)*) )+) => {
        /// A variant named at run time: the `UCI_Variant` value. One value per line
        /// of the registration list in `variant/mod.rs`, whose code is the value's
        /// discriminant.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr(u8)]
        pub enum VariantKind {
            $( $($attr)* $Kind = $code, )+
        }

        impl VariantKind {
            /// Every variant, in the order `UCI_Variant` lists them (the list's order).
            pub const ALL: [VariantKind; [$($code),+].len()] = [$(VariantKind::$Kind),+];

            /// The `UCI_Variant` name: the type's [`Variant::NAME`].
            pub const fn name(self) -> &'static str {
                match self {
                    $( VariantKind::$Kind => <$crate::$($path)* as $crate::variant::Variant>::NAME, )+
                }
            }

            /// The variant's byte in network file headers and `datagen` records
            /// (the list's code: stable across versions, so files keep their meaning).
            pub const fn code(self) -> u8 {
                self as u8
            }

            /// The variant whose [`VariantKind::code`] is `code`, if any.
            pub fn from_code(code: u8) -> Option<VariantKind> {
                VariantKind::ALL.into_iter().find(|v| v.code() == code)
            }

            /// The parameter-file blocks only this variant's evaluation reads: the
            /// type's [`Variant::EVAL_BLOCKS`].
            pub const fn eval_blocks(self) -> &'static [&'static str] {
                match self {
                    $( VariantKind::$Kind => <$crate::$($path)* as $crate::variant::Variant>::EVAL_BLOCKS, )+
                }
            }
        }

        // A type whose `KIND` names another line would have `with_variant!` and
        // `V::KIND` disagree: refused at compile time.
        const _: () = {
            $(
                assert!(
                    <$crate::$($path)* as $crate::variant::Variant>::KIND as u8 == VariantKind::$Kind as u8,
                    concat!("the type on line ", stringify!($Kind), " of the registration list has another Variant::KIND"),
                );
            )+
        };

        /// Runs `$body` with the type `$V` set to the variant that `$kind` (a
        /// [`VariantKind`](crate::variant::VariantKind)) names, so that generic code
        /// is instantiated once per variant: `with_variant!(kind, V => f::<V>())`.
        #[macro_export]
        macro_rules! with_variant {
            ($d kind:expr, $d V:ident => $d body:expr) => {
                match $d kind {
                    $(
                        $crate::variant::VariantKind::$Kind => {
                            #[allow(dead_code)]
                            type $d V = $crate::$($path)*;
                            $d body
                        }
                    )+
                }
            };
        }

        /// Runs `$body` with `$g` bound to the `Game<V>` inside an
        /// [`AnyGame`](crate::game::AnyGame), and the type `$V` to its variant, so
        /// that generic code is instantiated once per variant.
        #[macro_export]
        macro_rules! with_game {
            ($d game:expr, $d g:ident, $d V:ident => $d body:expr) => {
                match $d game {
                    $(
                        $crate::game::AnyGame::$Kind($d g) => {
                            #[allow(dead_code)]
                            type $d V = $crate::$($path)*;
                            $d body
                        }
                    )+
                }
            };
        }

        /// Calls `$callback!` with the list, one `(doc attributes) Kind (Type)` per
        /// variant.
        macro_rules! for_each_variant {
            ($d callback:ident) => {
                $d callback! { $( ($($attr)*) $Kind ($crate::$($path)*) )+ }
            };
        }
    };
}
