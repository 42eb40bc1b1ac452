#include "diff/test_util.h"

#include <gtest/gtest.h>

#include "yaml/reader.h"

namespace tjr::diff::testing {
namespace {

doc::ObjectId TrainJobId(std::string_view train_job) {
  std::size_t slash = train_job.find('/');
  return {"trainer.kubeflow.org/v1alpha1", "TrainJob", std::string(train_job.substr(0, slash)),
          std::string(train_job.substr(slash + 1))};
}

}  // namespace

pipeline::TrainJobResult Rendered(std::string_view train_job, std::string_view objects) {
  pipeline::TrainJobResult result;
  result.id = TrainJobId(train_job);
  result.file = "jobs.yaml";
  Result<std::vector<doc::Node>> documents = yaml::ReadStream(objects, "rendered.yaml");
  if (!documents.ok()) {
    ADD_FAILURE() << documents.error().ToString();
    return result;
  }
  result.objects = *documents;
  return result;
}

pipeline::TrainJobResult Refused(std::string_view train_job, std::string_view message) {
  pipeline::TrainJobResult result;
  result.id = TrainJobId(train_job);
  result.file = "jobs.yaml";
  result.diagnostics.push_back(MakeError(Location{InternSourceName("jobs.yaml"), 3, 5}, "spec", std::string(message)));
  return result;
}

std::string JobSet(std::string_view name, std::string_view namespace_, std::string_view image) {
  return "apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata:\n  name: " + std::string(name) +
         "\n  namespace: " + std::string(namespace_) +
         "\nspec:\n  replicatedJobs:\n  - name: node\n    replicas: 1\n    template:\n      spec:\n"
         "        template:\n          spec:\n            containers:\n            - image: " +
         std::string(image) + "\n              name: node\n";
}

}  // namespace tjr::diff::testing
