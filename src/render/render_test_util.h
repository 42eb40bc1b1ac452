#pragma once

#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include "render/render.h"
#include "render/test_util.h"
#include "doc/path.h"
#include "render/tree.h"

namespace tjr::render::testing {

inline RenderedObjects RenderYaml(std::string_view trainjob, std::string_view runtime) {
  RenderOptions options;
  options.version = trainer::TrainerVersion::kV2_1;  // these tests pin v2.1.0's rendering
  Result<RenderedObjects> r = Render(Yaml(trainjob), Yaml(runtime), options);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().ToString());
  return r.ok() ? *std::move(r) : RenderedObjects{};
}

inline const doc::Node& ObjectOfKind(const RenderedObjects& r, std::string_view api_version, std::string_view kind) {
  for (const doc::Node& o : r.objects) {
    if (doc::StringAtPath(o, {"kind"}) == kind && doc::StringAtPath(o, {"apiVersion"}) == api_version) return o;
  }
  ADD_FAILURE() << "no " << kind;
  static const doc::Node kNone;
  return kNone;
}

inline const doc::Node& JobSet(const RenderedObjects& r) {
  return ObjectOfKind(r, "jobset.x-k8s.io/v1alpha2", "JobSet");
}

/// replicatedJobs[i] of the JobSet.
inline const doc::Node& Job(const RenderedObjects& r, std::size_t i) {
  const doc::Node* jobs = doc::FindPath(JobSet(r), {"spec", "replicatedJobs"});
  if (jobs == nullptr || i >= jobs->size()) {
    ADD_FAILURE() << "no replicated job " << i;
    static const doc::Node kNone;
    return kNone;
  }
  return (*jobs)[i];
}

inline const doc::Node& Container(const RenderedObjects& r, std::size_t job, std::size_t container) {
  const doc::Node* cs = doc::FindPath(Job(r, job), {"template", "spec", "template", "spec", "containers"});
  if (cs == nullptr || container >= cs->size()) {
    ADD_FAILURE() << "no container";
    static const doc::Node kNone;
    return kNone;
  }
  return (*cs)[container];
}

inline void ExpectValue(const doc::Node* actual, std::string_view expected) {
  doc::Node e = Value(expected);
  if (actual == nullptr) {
    ADD_FAILURE() << "missing value; expected:\n" << ToYaml(e);
    return;
  }
  EXPECT_EQ(*actual, e) << "actual:\n" << ToYaml(*actual) << "expected:\n" << ToYaml(e);
}

}  // namespace tjr::render::testing
