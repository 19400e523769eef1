//! The tools around Sapper's engine, behind the `sapper` binary's command line:
//! the match runner ([`referee`]) and its statistics ([`stats`]), self-play data
//! ([`datagen`]) and the fitting of evaluation parameters and networks to it
//! ([`tune`], [`train`]). Only this crate depends on clap, serde and rayon; the
//! engine a GUI, a game site or a browser build embeds is `sapper-engine`.

pub mod datagen;
pub mod referee;
pub mod stats;
pub mod train;
pub mod tune;
