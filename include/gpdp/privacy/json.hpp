#pragma once
// The JSON forms of the privacy types, written in one place (issue 31): every certificate, ledger
// row, task and command output that writes a GpMechanism or a Guarantee goes through here, so a
// field is named once. Where outputs already differ in what they show of one type, the variants
// stand side by side below, each saying who writes it; none of them may change without changing
// what the documents show (the tests compare them byte for byte). A privacy event's form (count
// plus the mechanism's description) is event.hpp's to_json(Event) / event_from_json, written in
// terms of the mechanism's form here; RenyiFilter and AttackRisk keep theirs beside their types.
#include <nlohmann/json.hpp>

#include "gpdp/privacy/accountant.hpp"
#include "gpdp/privacy/mechanism.hpp"

namespace gpdp::privacy {

// JSON has no infinity: +∞ (σ of the covariance-only limit, an unbounded α_max) is the string
// "inf"; number_or_inf reads that string or a number back.
nlohmann::json number_or_inf(double v);
double number_or_inf(const nlohmann::json& j);

// The mechanism as its privacy event describes it (replayable into the same RDP curve):
// {"kind": "gp-posterior-sample", "dim", "n", "r", "M_Y", "lemma", "sigma", "eta", "kernel":
// {"name", "ell"}, "domain", "kappa", "rkhs_norm", "user_Vn", "user_Delta_n"} (the optional ones
// when set), or {"kind": "gp-functional-mean", ..., "noise_scale"} (no σ, η), or {"kind":
// "grid-mean", "n", "M_Y", "noise_scale", "count_noise", "cells"}, or {"kind": "prior-mean", "n",
// "M_Y", "noise_scale"}, or {"kind": "label-disagreement", "n", "M_Y", "noise_scale"}.
nlohmann::json to_json(const GpMechanism& m);
// InputError naming `source` for a malformed description.
GpMechanism mechanism_from_json(const nlohmann::json& j, const std::string& source);

// The noise of the mechanisms with a noise scale (has_noise_scale): {"noise_scale": s}, and for
// the grid mean also "count_noise" (s_N as it applies, grid_mean_count_noise) and "cells"; {} for
// the posterior sample. Part of the event's description, the certificate's "mechanism", the
// ledger row's "parameters", the preview's configurations and (without "cells") `gpdp calibrate
// --json`.
nlohmann::json noise_json(const GpMechanism& m);

// What a worker needs to draw (the "release.draw" task's params, release/draw_task.hpp): every
// sampling field, accounting fields left out: {"kind": to_string(kind), "kernel", "ell", "r",
// "sigma", "eta", "noise_scale", "count_noise" (as given), "cells", "domain" (or null), "dim",
// "n", "M_Y"}. σ is a plain number here (a release's σ is finite).
nlohmann::json draw_json(const GpMechanism& m);
GpMechanism mechanism_from_draw_json(const nlohmann::json& j);

// The certificate's guarantee: {"epsilon", "delta", "alpha_star", "rdp_at_alpha_star",
// "alpha_max" (number_or_inf), "conversion", "conversion_citation", "note"}.
nlohmann::json to_json(const Guarantee& g);
// The guarantee as `gpdp account --json` and `gpdp calibrate --json` print it, at the top level of
// their objects: {"epsilon", "delta", "alpha", "rdp", "conversion"}.
nlohmann::json brief_json(const Guarantee& g);

}  // namespace gpdp::privacy
