//! What the engine asks of a variant beyond its rules: the evaluation's hooks
//! ([`VariantEval`](crate::eval::VariantEval)), the search's ([`VariantSearch`]) and the front ends'
//! ([`VariantDisplay`]), each defined and implemented beside the code that calls it.
//! Every variant of the registration list implements all three; [`EngineVariant`]
//! names them together for the front ends, which need them all. Nothing below the
//! front ends imports this module.

use crate::display::VariantDisplay;
use crate::search::VariantSearch;

/// A variant the whole engine can play: its rules with the evaluation's, the
/// search's and the front ends' hooks ([`VariantSearch`] has
/// [`VariantEval`](crate::eval::VariantEval) as its supertrait).
pub trait EngineVariant: VariantSearch + VariantDisplay {}

impl<V: VariantSearch + VariantDisplay> EngineVariant for V {}
