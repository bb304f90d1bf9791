#pragma once
// The auditor's search space (internal): a point u of the unit cube [0,1]^p decodes into a
// neighbour pair (covariates in the domain box, |y| ≤ M_Y, or y = f*(x) with ‖f*‖_H = B for
// Lemma B.8) whose test set holds the differing point(s) and `extra_test` free points. Layout of u:
// per core row its covariate then its response; x; x' (general mode only); y, y'; the free test
// points; for Lemma B.8 the centres and weights of f* instead of responses.
#include <vector>

#include "gpdp/auditor/neighbour_pair.hpp"
#include "gpdp/auditor/pair_gradient.hpp"
#include "gpdp/domain.hpp"
#include "gpdp/privacy/mechanism.hpp"

namespace gpdp::auditor {

class PairCodec {
 public:
  // same_covariate: x' = x (only the responses differ).
  PairCodec(const privacy::GpMechanism& m, const Box& box, int extra_test, bool same_covariate);

  int size() const;
  long n() const { return n_; }
  int dim() const { return d_; }
  int extra_test() const { return extra_; }
  bool same_covariate() const { return same_; }
  const Box& box() const { return box_; }
  double M_Y() const { return m_.M_Y; }
  // The bounded-response model (every lemma but B.8): encode and pull_back need it.
  bool differentiable() const { return !rkhs_; }

  NeighbourPair decode(const std::vector<double>& u) const;
  // The u that decodes to `pair` (coordinates clamped into the box, responses into [−M_Y, M_Y]);
  // the pair's test rows beyond the differing points are its free test points.
  std::vector<double> encode(const NeighbourPair& pair) const;
  // ∂f/∂u from ∂f/∂(fields of the decoded pair): the chain rule through decode, adding up the
  // core rows that X and X' share and the test rows tied to x and x'.
  std::vector<double> pull_back(const PairGradient& g) const;

 private:
  static constexpr int kCentres = 3;
  const privacy::GpMechanism& m_;
  Box box_;
  int d_;
  long n_;
  int extra_;
  bool same_;
  bool rkhs_;
};

}  // namespace gpdp::auditor
