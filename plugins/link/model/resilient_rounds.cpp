#include "resilient_rounds.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace haec::link::resilient {
namespace {

// log C(n, k)
double log_choose(int n, int k)
{
  return std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0);
}

// P(X = y) for X ~ Binomial(k, fail), computed in log space (k up to thousands).
double binomial_pmf(int k, int y, double fail)
{
  if (fail <= 0)
    return y == 0 ? 1.0 : 0.0;
  if (fail >= 1)
    return y == k ? 1.0 : 0.0;
  return std::exp(log_choose(k, y) + y * std::log(fail) + (k - y) * std::log1p(-fail));
}

// A repair combination raises rank r of a generation of g with probability 1 - 256^(r-g).
double innovation(int r, int g)
{
  return r >= g ? 0.0 : -std::expm1((r - g) * std::log(256.0));
}

RoundStats dor_expected(int g, double q_data, double q_ack)
{
  const double confirm = q_data * q_ack; // packet and its ack both arrive
  const double fail    = 1 - confirm;
  if (fail <= 0)
    return {1.0, static_cast<double>(g - 1)};
  // R(k), I(k) for k packets outstanding; every round of k packets ends at index k - 1 (all acked
  // at t_ok(k), or the timer RTO(k)). y ~ Binomial(k, fail) remain; y = k is a self-loop.
  std::vector<double> R(g + 1, 0.0), I(g + 1, 0.0);
  for (int k = 1; k <= g; ++k) {
    double r = 1, i = k - 1;
    for (int y = 1; y < k; ++y) {
      const double p = binomial_pmf(k, y, fail);
      r += p * R[y];
      i += p * I[y];
    }
    const double stay = binomial_pmf(k, k, fail);
    R[k]              = r / (1 - stay);
    I[k]              = i / (1 - stay);
  }
  return {R[g], I[g]};
}

// One round of a coded protocol from (rank r, known rank k), sending n packets, the first `sys`
// of them systematic. Accumulates the probability of ending at each packet index (`done_index`,
// weighted sum) and the distribution of (r', k') after a timeout into `next`.
struct RoundOutcome {
  double p_done      = 0;
  double done_index  = 0; // sum_j P(done at j) * j
  std::vector<double> next; // (g+1)^2, timeout end states
};

class CodedChain {
public:
  CodedChain(Protocol protocol, int g, double q_data, double q_ack, double target)
      : g_(g), qd_(q_data), qa_(q_ack), innov_(g + 1), sizes_(round_sizes(protocol, g, q_data, target))
  {
    for (int r = 0; r <= g; ++r)
      innov_[r] = innovation(r, g);
  }

  int round_size(int k) const { return sizes_[k]; }

  RoundOutcome round(int r0, int k0, int n, int sys) const
  {
    const int S = g_ + 1;
    std::vector<double> mass(S * S, 0.0), nxt(S * S, 0.0);
    mass[r0 * S + k0] = 1;
    RoundOutcome out;
    for (int j = 0; j < n; ++j) {
      std::fill(nxt.begin(), nxt.end(), 0.0);
      const bool systematic = j < sys;
      for (int r = 0; r <= g_; ++r)
        for (int k = 0; k <= r && k < g_; ++k) {
          const double m = mass[r * S + k];
          if (m == 0)
            continue;
          nxt[r * S + k] += m * (1 - qd_); // dropped on some hop
          const double arrived = m * qd_;
          const double up      = r < g_ ? (systematic ? 1.0 : innov_[r]) : 0.0;
          for (int step = 0; step < 2; ++step) {
            const double pm = arrived * (step ? up : 1 - up);
            if (pm == 0)
              continue;
            const int r2 = r + step;
            if (r2 == g_) // its ack, if it arrives, reports full rank: the round ends here
              out.p_done += pm * qa_, out.done_index += pm * qa_ * j;
            else
              nxt[r2 * S + std::max(k, r2)] += pm * qa_;
            nxt[r2 * S + k] += pm * (1 - qa_);
          }
        }
      std::swap(mass, nxt);
    }
    out.next = std::move(mass);
    return out;
  }

  RoundStats solve() const
  {
    const int S = g_ + 1;
    // Repair rounds from every (r, k), k < g, in decreasing order: successors are >= in both.
    std::vector<double> R(S * S, 0.0), I(S * S, 0.0);
    for (int r = g_; r >= 0; --r)
      for (int k = std::min(r, g_ - 1); k >= 0; --k) {
        const int n        = round_size(k);
        RoundOutcome o     = round(r, k, n, 0);
        const double p_out = 1 - o.p_done; // timed out
        double rr = 1, ii = o.done_index + p_out * (n - 1), stay = 0;
        for (int r2 = r; r2 <= g_; ++r2)
          for (int k2 = k; k2 <= r2 && k2 < g_; ++k2) {
            const double p = o.next[r2 * S + k2];
            if (r2 == r && k2 == k)
              stay = p;
            else if (p != 0)
              rr += p * R[r2 * S + k2], ii += p * I[r2 * S + k2];
          }
        R[r * S + k] = rr / (1 - stay);
        I[r * S + k] = ii / (1 - stay);
      }
    // The first round: the g systematic packets (NCD_r: plus its extra random combinations).
    const int n        = round_size(0);
    RoundOutcome o     = round(0, 0, n, g_);
    RoundStats s{1, o.done_index + (1 - o.p_done) * (n - 1)};
    for (int i = 0; i < S * S; ++i)
      if (o.next[i] != 0)
        s.rounds += o.next[i] * R[i], s.index_sum += o.next[i] * I[i];
    return s;
  }

private:
  int g_;
  double qd_, qa_;
  std::vector<double> innov_;
  std::vector<int> sizes_;
};

} // namespace

int ncd_round_size(int needed, double q_data, double target)
{
  if (needed <= 0)
    return 0;
  if (q_data >= 1)
    return needed;
  const int cap = 64 * needed + 64;
  // P(Bin(n, q) >= needed) for n = needed, needed + 1, ... from the pmf of Bin(n, q) below `needed`.
  for (int n = needed; n < cap; ++n) {
    double below = 0;
    for (int y = 0; y < needed; ++y)
      below += binomial_pmf(n, y, q_data); // pmf of successes: binomial_pmf(n, y, p) with p = q
    if (1 - below >= target)
      return n;
  }
  return cap;
}

std::vector<int> round_sizes(Protocol protocol, int g, double q_data, double ncd_target)
{
  std::vector<int> sizes(g);
  for (int k = 0; k < g; ++k)
    sizes[k] = protocol == Protocol::NCD_r ? ncd_round_size(g - k, q_data, ncd_target) : g - k;
  return sizes;
}

RoundStats expected_rounds(Protocol protocol, int g, double q_data, double q_ack, double ncd_target)
{
  if (!(q_data > 0) || !(q_ack > 0))
    return {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
  if (protocol == Protocol::DOR_r)
    return dor_expected(g, q_data, q_ack);
  return CodedChain(protocol, g, q_data, q_ack, ncd_target).solve();
}

RoundDraw sample_rounds(Protocol protocol, int g, double q_data, double q_ack, const std::vector<int>& sizes,
                        std::mt19937_64& rng)
{
  RoundDraw d;
  if (protocol == Protocol::DOR_r) {
    const double confirm = q_data * q_ack;
    for (int k = g; k > 0;) {
      d.rounds++;
      d.index_sum += k - 1;
      int confirmed = 0;
      for (int j = 0; j < k; ++j)
        confirmed += unit_draw(rng) < confirm;
      k -= confirmed;
    }
    return d;
  }
  int r = 0, k = 0;
  for (bool first = true;; first = false) {
    const int n = sizes[k];
    d.rounds++;
    for (int j = 0; j < n; ++j) {
      if (!(unit_draw(rng) < q_data))
        continue;
      if (r < g && ((first && j < g) || unit_draw(rng) < innovation(r, g)))
        r++;
      if (unit_draw(rng) < q_ack) {
        if (r == g) {
          d.index_sum += j;
          return d;
        }
        k = std::max(k, r);
      }
    }
    d.index_sum += n - 1;
  }
}

} // namespace haec::link::resilient
