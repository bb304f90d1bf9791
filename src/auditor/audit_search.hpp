#pragma once
// The auditor's searches over a PairCodec's cube (internal). Every value they report comes from an
// EXACT oracle (neighbour_pair.hpp) evaluated on the decoded pair; the searches only propose pairs.
//   subplex_search   seeded random restarts + NLopt's derivative-free Subplex (the original search)
//   gradient_search  projected gradient ascent from given starts, on the analytic gradient
//   structured_starts / random_starts / extend_pair  where the gradient search starts from
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "audit_codec.hpp"
#include "gpdp/rng.hpp"

namespace gpdp::auditor {

// An exact objective: NaN or ±∞ means "proves nothing" (counted as singular, never a finding).
using ExactObjective = std::function<double(const NeighbourPair&)>;
// A smooth stand-in of the same value with its gradient (pair_gradient.hpp); NaN = reject.
using SmoothObjective = std::function<double(const NeighbourPair&, PairGradient*)>;

struct Found {
  double best = -std::numeric_limits<double>::infinity();
  NeighbourPair witness;
  std::string start;  // which start led to the witness (gradient search)
  long evaluations = 0;
  long singular = 0;
  // Scores `pair` with the exact value v (NaN/∞ counted as singular); keeps the larger.
  void offer(double v, const NeighbourPair& pair, const std::string& from = {});
  void merge(const Found& other);
};

// `restarts` seeded random restarts, each a Subplex run from subplex_starts (in order, merged).
Found subplex_search(const PairCodec& codec, int restarts, int max_evals, SeededRng& rng,
                     const ExactObjective& exact);
// The restarts' starting points: uniform in the cube, every other one pushed to its faces.
std::vector<std::vector<double>> subplex_starts(const PairCodec& codec, int restarts,
                                                SeededRng& rng);
// One restart: Subplex from u for at most max_evals evaluations, every point scored by `exact`.
Found subplex_from(const PairCodec& codec, std::vector<double> u, int max_evals,
                   const ExactObjective& exact);

struct Start {
  NeighbourPair pair;
  std::string name;
};

// Projected gradient ascent (Armijo backtracking on the ∞-normalised gradient, clamped to the
// cube) from each start for at most max_iterations gradient evaluations; each start and each end
// point is scored by `exact`. Starts run on `threads` workers; the result does not depend on it.
Found gradient_search(const PairCodec& codec, const std::vector<Start>& starts, int max_iterations,
                      const SmoothObjective& smooth, const ExactObjective& exact, int threads);
// One start of gradient_search.
Found ascend_from(const PairCodec& codec, const Start& start, int max_iterations,
                  const SmoothObjective& smooth, const ExactObjective& exact);

// Hand-built worst-case candidates of the codec's shape: the differing point far from a clustered
// core or on top of it (core responses against or with it), two opposite clusters, core on the
// box corners/boundary, a checkerboard grid, a tight cluster around x, uniform with ±M_Y; free test
// points near x, x', the core and the corners. `ell` is the kernel's length scale.
std::vector<Start> structured_starts(const PairCodec& codec, double ell, SeededRng& rng);
// Uniform points of the cube, half of them with every response at ±M_Y (the original restarts).
std::vector<Start> random_starts(const PairCodec& codec, int count, SeededRng& rng);
// Continuation: `witness` (a pair of smaller n) grown to codec.n() by new core points stacked on
// x (rule 0), on x' (1), copied from the core (2), in the corner farthest from x with
// alternating ±M_Y (3), or uniform with ±M_Y (4); test points kept.
Start extend_pair(const PairCodec& codec, const NeighbourPair& witness, int rule, SeededRng& rng);

// 1 = n_0 < n_1 < ... = n, each rung ~1.5 x the previous: the sizes a continuation visits.
std::vector<long> continuation_ladder(long n);

}  // namespace gpdp::auditor
