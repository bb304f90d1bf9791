#pragma once
// A release chosen adaptively from a public list of candidates (the privacy map of issue #28's
// `--mechanism auto`, docs/privacy.md "Choosing a mechanism from a private summary"):
//
//   M(D) = (S(D), C_{k(S(D))}(D)),   k a function of S's output and public inputs only.
//
// Adaptive sequential composition of RDP (Mironov 2017, Prop. 1) needs the second mechanism to be
// ε_α-RDP for EVERY value of the first's output; over the public list that is the envelope
//   ε_α(M) ≤ ε_α(S) + max_k ε_α(C_k)   for every α in the intersection of the admissible ranges,
// with replace-one neighbours of the same size n (n public). Each candidate C_k is itself a
// composition (an Accountant: a prior-mean event, L draws, ...). The candidate list must be fixed
// before the data are read: it may depend on public inputs only.
#include <vector>

#include "gpdp/privacy/accountant.hpp"
#include "gpdp/privacy/rdp.hpp"

namespace gpdp::privacy {

// Mironov 2017, Prop. 1 over a public list: the pointwise maximum α ↦ max_k ε_α(C_k) on
// (1, min_k α_max(C_k)), +∞ outside; an empty candidate (the trivial map, no event) has ε_α = 0.
// ParameterError "candidates" for an empty list.
RdpCurve candidate_envelope(const std::vector<Accountant>& candidates);

// Mironov 2017, Prop. 1: the summary's events followed by the envelope of the candidates (one
// adaptively chosen release, Accountant::add_choice: recordable, replays to the same curve); its
// epsilon() is the (ε, δ) of the whole adaptive release.
Accountant summary_then_choice(const Accountant& summary,
                               const std::vector<Accountant>& candidates);

}  // namespace gpdp::privacy
