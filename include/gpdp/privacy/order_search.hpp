#pragma once
// Minimisation over the Rényi orders α ∈ (1, α_max): a scan in a variable that resolves both ends
// of the range, then Brent's method around the best local minima. Used by the accountant (ε(δ),
// δ(ε)), the privacy filter (its order) and the attack-risk bounds.
#include <functional>

namespace gpdp::privacy {

struct OrderMinimum {
  double alpha = 0.0;
  double value = 0.0;
  bool pinned_low = false;   // the minimum sits at the lower end of the scanned range (α → 1)
  bool pinned_high = false;  // ... at the upper end (α → α_max)
};

// Minimises objective(α) over the open range (1, α_max) (α_max may be +∞); +∞ values mark
// inadmissible orders. PrivacyError when no order gives a finite value.
OrderMinimum minimise_over_orders(double alpha_max, const std::function<double(double)>& objective);

}  // namespace gpdp::privacy
