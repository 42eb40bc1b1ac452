#pragma once

#include <string_view>
#include <vector>

#include "base/diagnostic.h"
#include "doc/node.h"

// Trainer runtimes that a manifest carries as text. The kubeflow-trainer
// chart (v2.3.0 on) renders its built-in runtimes into one ConfigMap,
// `templates/runtimes/configmap.yaml`, as `data."runtimes.yaml"`, a YAML
// stream that a post-install hook Job applies with `kubectl apply -f
// /manifests/runtimes.yaml` (`templates/runtimes/installer-job.yaml`): the
// cluster gets those runtimes although no document of the chart's output
// is one.
namespace tjr::source {

/// The data key the chart keeps its runtimes under.
inline constexpr std::string_view kEmbeddedRuntimesKey = "runtimes.yaml";

/// For every document of `documents` that is such a ConfigMap (a v1
/// ConfigMap whose `data."runtimes.yaml"` is a YAML stream of which every
/// document is a trainer.kubeflow.org TrainingRuntime or
/// ClusterTrainingRuntime), those runtimes are inserted after it, each node
/// located in `file` where its text stands: a literal block scalar (`|`, as
/// the chart writes it) maps line for line, shifted by its indentation; any
/// other style of string places every node at the value. `text` is the file
/// the documents were read from. A "runtimes.yaml" naming trainer.kubeflow.org
/// that is no YAML stream is an error in `diagnostics`, located in the file.
void ExpandEmbeddedRuntimes(std::string_view text, std::vector<doc::Node>* documents, Diagnostics* diagnostics);

}  // namespace tjr::source
