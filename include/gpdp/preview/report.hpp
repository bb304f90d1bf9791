#pragma once
// What `gpdp preview` writes: preview.json (schema below), a short text table and preview.png
// (utility against ε, one line per configuration family, the chosen configuration marked, the
// chance and non-private levels drawn). And the way back: the configuration a preview chose for
// one ε, as `gpdp release --config-from preview.json --target-epsilon E` applies it.
//
// preview.json:
//   {"format": "gpdp-preview-1", "gpdp_version", "epsilons": [...], "delta", "conversion", "n",
//    "results": [{"epsilon": e, "best": {"config": {...}, "iou": {"mean", "lo", "hi"},
//                 "tuning_iou"}, "default": {...}, "gain_over_default", "beats_chance",
//                 "candidates": [{"config", "iou", "tuning_iou", "bce"?}, ...], "infeasible"}],
//    "random_set_iou": ., "nonprivate_iou": ., "random_set_iou_interval",
//    "nonprivate_iou_interval", "theta": {...}, "inputs": {...}, "simulations", "seed", "interval",
//    "seconds"}
// config: {"family", "mechanism", "solve", "kernel", "ell", "r", "sigma", "eta" | "noise_scale",
//          "draws", "vote_cutoff", "smooth", "epsilon", "delta", "conversion", "lemma", "n", "M_Y"}
#include <nlohmann/json.hpp>
#include <string>

#include "gpdp/preview/preview.hpp"

namespace gpdp::preview {

// `inputs` is recorded as given (the CLI's description of the public inputs).
nlohmann::json preview_json(const PreviewRequest& request, const PreviewResult& result,
                            const nlohmann::json& inputs);

// One line per ε: the chosen configuration and its predicted IoU, the default's, the levels.
std::string preview_table(const PreviewResult& result);

// The plot, encoded ("png" or "svg").
std::string preview_plot(const PreviewResult& result, const std::string& format);

nlohmann::json config_json(const ReleaseConfig& config, double delta,
                           privacy::Conversion conversion);

// The configuration a preview file chose for the target ε (an entry of "results" whose epsilon
// equals it), with the predicted IoU. InputError (naming `source`) if the file is not a preview or
// has no such target.
struct ChosenConfig {
  nlohmann::json config;  // as in the file
  nlohmann::json iou;     // {"mean", "lo", "hi"}
  double delta = 0.0;
  std::string conversion;
};
ChosenConfig chosen_config(const nlohmann::json& preview, double target_epsilon,
                           const std::string& source);

}  // namespace gpdp::preview
