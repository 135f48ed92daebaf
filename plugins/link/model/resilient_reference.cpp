#include "resilient_reference.hpp"

#include "input_error.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace haec::link::resilient {
namespace {

double uniform(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

// GF(2^8) with the polynomial x^8 + x^4 + x^3 + x^2 + 1 (0x11d), by log/exp tables.
struct GF256 {
  std::array<uint8_t, 512> exp{};
  std::array<int, 256> log{};
  GF256()
  {
    int x = 1;
    for (int i = 0; i < 255; ++i) {
      exp[i] = static_cast<uint8_t>(x);
      log[x] = i;
      x <<= 1;
      if (x & 0x100)
        x ^= 0x11d;
    }
    for (int i = 255; i < 512; ++i)
      exp[i] = exp[i - 255];
  }
  uint8_t mul(uint8_t a, uint8_t b) const { return a && b ? exp[log[a] + log[b]] : 0; }
  uint8_t inv(uint8_t a) const { return exp[255 - log[a]]; }
};
const GF256& gf()
{
  static const GF256 field;
  return field;
}

// The receiver's decoding matrix in reduced row-echelon form; insert() reports whether the
// vector raised the rank.
class Decoder {
public:
  explicit Decoder(int g) : g_(g), pivot_row_(g, -1) {}
  int rank() const { return static_cast<int>(rows_.size()); }
  bool insert(std::vector<uint8_t> v)
  {
    const GF256& F = gf();
    for (int c = 0; c < g_; ++c) // eliminate the existing pivots
      if (v[c] && pivot_row_[c] >= 0) {
        const auto& row = rows_[pivot_row_[c]];
        const uint8_t f = v[c];
        for (int j = 0; j < g_; ++j)
          v[j] ^= F.mul(f, row[j]);
      }
    int lead = -1;
    for (int c = 0; c < g_ && lead < 0; ++c)
      if (v[c])
        lead = c;
    if (lead < 0)
      return false;
    const uint8_t s = F.inv(v[lead]);
    for (auto& x : v)
      x = F.mul(s, x);
    for (auto& row : rows_) // keep the matrix reduced
      if (row[lead]) {
        const uint8_t f = row[lead];
        for (int j = 0; j < g_; ++j)
          row[j] ^= F.mul(f, v[j]);
      }
    pivot_row_[lead] = static_cast<int>(rows_.size());
    rows_.push_back(std::move(v));
    return true;
  }

private:
  int g_;
  std::vector<int> pivot_row_;
  std::vector<std::vector<uint8_t>> rows_;
};

} // namespace

Reference::Reference(Protocol protocol, Params params) : protocol_(protocol), p_(params)
{
  validate(p_, protocol_);
  // The layout of seed 001 §4.2, derived here on its own.
  const bool coded = protocol_ != Protocol::DOR_r;
  const double w   = p_.window;
  payload_ = p_.packet_size - p_.window_id - p_.signature - (coded ? w * p_.ff_symbol : p_.packet_id);
  ack_     = p_.window_id + (coded ? 1 : p_.packet_id) + p_.timestamp + p_.signature;
  d_s_     = 2 * p_.d_out + p_.d_sign + (coded ? w * p_.d_p : 0);
  d_r_     = 2 * p_.d_out + p_.d_verify + p_.d_sign + (coded ? w * w * p_.d_p : 0);
  d_a_     = p_.d_out / 2 + p_.d_verify;
}

// P(Binomial(n, q) >= needed) >= target for the smallest n >= needed (capped at 64 needed + 64),
// from the pmf recurrence P(k+1) = P(k) (n-k)/(k+1) q/(1-q).
double Reference::ncd_size(int needed, double q) const
{
  if (q >= 1)
    return needed;
  const int cap = 64 * needed + 64;
  for (int n = needed; n < cap; ++n) {
    double pk = std::pow(1 - q, n), below = 0;
    for (int k = 0; k < needed; ++k) {
      below += pk;
      pk *= static_cast<double>(n - k) / (k + 1) * q / (1 - q);
    }
    if (1 - below >= p_.ncd_target)
      return n;
  }
  return cap;
}

// What every window of one message over one route shares.
struct Reference::Route {
  const Hop* hops = nullptr;
  size_t h        = 0;
  std::vector<double> dp;      // packet hop delays
  double ack_back = 0;         // an ack's way back, hop delays and d_a per hop
  double q        = 1;         // delivery probability of a data packet (NCD_r's estimate)
  bool uniform_loss = true;    // one loss probability on every hop: drops drawn as geometric
  double log_keep_data = 0, log_keep_ack = 0;
  std::vector<double> timer;   // timer[k]: loss-free arrival of the last of k packets (lazy)
  std::vector<int> ncd;        // ncd[needed] (lazy, -1 = unknown)
};

// Index of the hop that drops the packet, or h if it gets through; with one loss probability on
// every hop the first drop is geometric (one draw), otherwise one draw per hop.
static size_t drop_hop(const Hop* hops, size_t h, bool ack, bool uniform_loss, double log_keep, std::mt19937_64& rng)
{
  if (uniform_loss) {
    if (log_keep == 0)
      return h;
    const double u = 1 - uniform(rng); // (0, 1]
    const double k = std::floor(std::log(u) / log_keep);
    return k < static_cast<double>(h) ? static_cast<size_t>(k) : h;
  }
  for (size_t i = 0; i < h; ++i)
    if (uniform(rng) < (ack ? hops[h - 1 - i].loss_ack : hops[i].loss_data))
      return i;
  return h;
}

// Where the last of k packets sent at time 0 would reach the receiver with no loss: the
// retransmission timer of a round of k packets (memoised per route).
double Reference::loss_free_last(Route& rt, int k) const
{
  if (static_cast<int>(rt.timer.size()) <= k)
    rt.timer.resize(k + 1, -1);
  if (rt.timer[k] >= 0)
    return rt.timer[k];
  std::vector<double> free(rt.h, 0.0);
  double last = 0;
  for (int j = 0; j < k; ++j) {
    double t = d_s_;
    for (size_t i = 0; i < rt.h; ++i) {
      t       = std::max(t, free[i]) + rt.dp[i];
      free[i] = t;
      if (i + 1 < rt.h)
        t += d_a_; // d_i
    }
    last = t + d_r_;
  }
  return rt.timer[k] = last;
}

// How many coded combinations a round sends for `needed` missing ranks: NCD_r adds redundancy for
// the route's loss (memoised), PNC_r sends exactly what is missing.
int Reference::coded_round_size(int needed, Route& rt) const
{
  if (protocol_ != Protocol::NCD_r)
    return needed;
  if (static_cast<int>(rt.ncd.size()) <= needed)
    rt.ncd.resize(needed + 1, -1);
  if (rt.ncd[needed] < 0)
    rt.ncd[needed] = static_cast<int>(ncd_size(needed, rt.q));
  return rt.ncd[needed];
}

// One window of g packets, from its first round to the moment the sender knows it is complete.
double Reference::window(int g, Route& rt, std::mt19937_64& rng) const
{
  const size_t h = rt.h;
  const bool coded = protocol_ != Protocol::DOR_r;
  std::vector<bool> acked(g, false); // DOR_r
  int known = 0;                     // coded: highest rank acked
  Decoder decoder(g);
  double now = 0;
  std::vector<int> send;
  std::vector<double> free(h);
  for (bool first = true;; first = false) {
    // What this round sends: DOR_r the unacked packets; coded a count of combinations.
    send.clear();
    if (!coded) {
      for (int j = 0; j < g; ++j)
        if (!acked[j])
          send.push_back(j);
    } else
      send.assign(coded_round_size(g - known, rt), 0);
    const int k = static_cast<int>(send.size());
    std::fill(free.begin(), free.end(), 0.0);
    double done_at    = -1;
    int still_missing = coded ? 0 : k;
    for (int j = 0; j < k && done_at < 0; ++j) {
      // The packet crosses the links up to the one that drops it (it still used that link).
      const size_t dropped = drop_hop(rt.hops, h, false, rt.uniform_loss, rt.log_keep_data, rng);
      double t             = d_s_;
      for (size_t i = 0; i < h && i <= dropped; ++i) {
        t       = std::max(t, free[i]) + rt.dp[i];
        free[i] = t;
        if (i + 1 < h)
          t += d_a_; // d_i at the forwarder
      }
      if (dropped < h)
        continue;
      const double arrival = t + d_r_;
      int rank             = 0;
      if (coded) {
        std::vector<uint8_t> v(g, 0);
        if (first && j < g)
          v[j] = 1; // systematic: the original packet j
        else
          for (auto& c : v)
            c = static_cast<uint8_t>(rng() & 0xff);
        decoder.insert(std::move(v));
        rank = decoder.rank();
      }
      // Its acknowledgment crosses the links back.
      if (drop_hop(rt.hops, h, true, rt.uniform_loss, rt.log_keep_ack, rng) < h)
        continue;
      const double ack_time = arrival + rt.ack_back;
      if (coded) {
        known = std::max(known, rank);
        if (known == g)
          done_at = ack_time;
      } else {
        if (!acked[send[j]]) {
          acked[send[j]] = true;
          --still_missing;
        }
        if (still_missing == 0)
          done_at = ack_time;
      }
    }
    if (done_at >= 0)
      return now + done_at;
    now += loss_free_last(rt, k) + rt.ack_back + p_.rto_margin; // the timer fires
  }
}

double Reference::simulate_once(uint64_t m, const Hop* hops, size_t h, std::mt19937_64& rng) const
{
  if (h == 0)
    return (d_s_ + d_r_) / 2 + p_.d_mpi;
  auto ser = [&](double bytes, double b) { return p_.units == Units::Physical ? bytes / b : bytes / (8 * b); };
  Route rt;
  rt.hops = hops;
  rt.h    = h;
  rt.dp.assign(h, 0.0);
  for (size_t i = 0; i < h; ++i) {
    rt.dp[i] = p_.d_out + hops[i].latency + ser(p_.packet_size, hops[i].bandwidth) + p_.d_in;
    rt.ack_back += p_.d_out + hops[i].latency + ser(ack_, hops[i].bandwidth) + p_.d_in + d_a_;
    rt.q *= 1 - hops[i].loss_data;
    rt.uniform_loss = rt.uniform_loss && hops[i].loss_data == hops[0].loss_data && hops[i].loss_ack == hops[0].loss_ack;
  }
  rt.log_keep_data = std::log1p(-hops[0].loss_data);
  rt.log_keep_ack  = std::log1p(-hops[0].loss_ack);
  const uint64_t n_p = std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(static_cast<double>(m) / payload_)));
  const auto w       = static_cast<uint64_t>(p_.window);
  double t           = p_.d_mpi;
  for (uint64_t i = 0; i < n_p / w; ++i)
    t += window(p_.window, rt, rng);
  if (n_p % w)
    t += window(static_cast<int>(n_p % w), rt, rng);
  return t;
}

Reference::Estimate Reference::estimate(uint64_t m, const Hop* hops, size_t h, uint64_t seed, double rel_ci,
                                        uint64_t min_reps, uint64_t max_reps) const
{
  std::mt19937_64 rng(seed);
  Estimate e;
  double mean = 0, m2 = 0; // Welford's running mean and squared deviations
  for (uint64_t n = 1; n <= max_reps; ++n) {
    const double x     = simulate_once(m, hops, h, rng);
    const double delta = x - mean;
    mean += delta / static_cast<double>(n);
    m2 += delta * (x - mean);
    e.reps = n;
    if (n >= std::max<uint64_t>(min_reps, 2)) {
      const double half = 1.96 * std::sqrt(m2 / static_cast<double>(n - 1) / static_cast<double>(n));
      e.ci95_half       = half;
      if (half <= rel_ci * mean)
        break;
    }
  }
  e.mean = mean;
  return e;
}

} // namespace haec::link::resilient
