#pragma once
// The way from a preview to a release: `gpdp release --config-from DIR/preview.json
// --target-epsilon E` releases with exactly the public parameters the preview chose for E
// (mechanism, kernel and ℓ, r, σ, η or s, sensitivity lemma, L, vote cutoff, smoothing,
// conversion) and no calibration; the certificate records the preview file's SHA-256, the target
// and the predicted IoU. The release refuses (nothing drawn, nothing spent) when the preview does
// not fit the private data: another n (checked once the data are read) or another M_Y or δ, or when
// its own accounting exceeds E.
#include <string>

#include "gpdp/release/request.hpp"

namespace gpdp::preview {

// Reads the preview file, finds the result for `target_epsilon` and sets the release's public
// parameters from its chosen configuration, with `request.preview` recording where they came
// from. InputError naming the file when it is not a preview, has no such target, or was made for
// another δ or M_Y than the request's.
void apply_preview_config(const std::string& preview_file, double target_epsilon,
                          release::ReleaseRequest& request);

}  // namespace gpdp::preview
