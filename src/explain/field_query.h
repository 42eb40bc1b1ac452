#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.h"
#include "explain/explain.h"

namespace tjr::explain {

/// The fields a `--field PATH` query selects: the field at PATH and every
/// field below it, present or deleted, in each object that has one.
struct Selection {
  const ObjectExplanation* object = nullptr;
  std::vector<const Field*> fields;
};

/// PATH as a user writes it: `spec.replicatedJobs[name=node].template...`,
/// list items by key (`[name=node]`, `[mountPath=/data]`) or by index
/// (`[0]`, read against the rendered list), map keys that are not plain
/// identifiers in brackets (`metadata.labels[app.kubernetes.io/name]`), a
/// leading `.` allowed. A PATH no object has is an error naming the
/// closest field that exists.
Result<std::vector<Selection>> SelectFields(const Explanation& explanation, std::string_view query);

}  // namespace tjr::explain
