#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "source/loader.h"

// What an upgrade changes: every TrainJob rendered as it was written for
// the old Trainer and as migrated for the new one, compared field by field.
namespace tjr::migrate {

struct CompareOptions {
  std::string before_target = "trainer-v2.1";
  std::string after_target = "trainer-v2.3";
  std::string default_namespace = "default";
  bool enforce_namespace = false;
  unsigned threads = 0;
};

/// One TrainJob whose rendering differs.
struct TrainJobComparison {
  std::string train_job;  ///< "namespace/name"
  Location location;      ///< of the TrainJob as written
  /// "Kind namespace/name: <difference>" with docdiff::FormatFieldDifference's
  /// text, objects in the order the new target renders them (removed ones
  /// last), fields in document order.
  std::vector<std::string> differences;
};

struct Comparison {
  /// TrainJobs with at least one difference, in the pipeline's order.
  std::vector<TrainJobComparison> trainjobs;
  /// Errors rendering at either target (the message starts with the
  /// target): a TrainJob the new target refuses is a difference too.
  Diagnostics errors;

  /// Differences and refusals together.
  std::size_t Count() const;
};

/// Renders `before` at options.before_target and `after` at
/// options.after_target (both whole manifest sets: runtimes come from
/// them) and compares each TrainJob's objects, matched by
/// apiVersion/kind/namespace/name. TrainJobs named in `skip`
/// ("namespace/name") are left out.
Comparison CompareRenders(const std::vector<source::ParsedFile>& before,
                          const std::vector<source::ParsedFile>& after,
                          const std::set<std::string>& skip, const CompareOptions& options);

}  // namespace tjr::migrate
