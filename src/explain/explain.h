#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "base/location.h"
#include "doc/node.h"

// Where every value of the rendered objects came from: the layers that
// wrote, replaced or deleted it, and for list items why they sit where they
// sit. Built only by `tjrender explain` and `diff --explain`; the render
// path never pays for it.
namespace tjr::explain {

/// What kind of layer wrote a value; the colour and the legend of the
/// formats follow it.
enum class LayerKind {
  kRuntime,          ///< the (Cluster)TrainingRuntime as written
  kDefault,          ///< a CRD default the API server writes
  kTypedRoundTrip,   ///< the controller's decode into Go types and encode again
  kOverride,         ///< one podTemplateOverrides entry (v2.1)
  kPatch,            ///< one runtimePatches entry (v2.2+)
  kPlugin,           ///< an ML-policy or pod-group plugin
  kBuilder,          ///< the JobSet builder (from spec.trainer, metadata)
  kFlyteDefaultTemplate,   ///< the default-pod-template-name PodTemplate
  kFlytePrimaryTemplate,   ///< the PodTemplate the task names
  kFlyteTask,              ///< the task's container or pod spec
  kFlytePluginConfig,      ///< propeller's plugins.k8s configuration
  kFlyteTaskResources,     ///< flyteadmin's task_resources defaults and limits
  kFlyteExecutionOverrides,  ///< the execution's overrides
  kFlytePropeller,         ///< values flytepropeller computes itself
};

/// The short, stable name of a kind ("runtime", "podTemplateOverride",
/// "runtimePatch", "plugin", "builder", "default", "typed", "flyte-..."),
/// used by the JSON format and as the CSS class of the HTML page.
const char* LayerKindName(LayerKind kind);

/// One layer of a render, in the order the controller applies them.
struct Layer {
  LayerKind kind = LayerKind::kRuntime;
  /// How the formats name it: "runtime", "default",
  /// "podTemplateOverrides[0]", "runtimePatches[kueue.x-k8s.io/manager]",
  /// "plugin torch", "builder", "typed round trip", "default template"...
  std::string name;
  /// Where the layer is written (the runtime object, the override or patch
  /// entry); unknown for the controller's own layers.
  Location location;
};

/// What a layer did to a value.
enum class Action {
  kSet,      ///< wrote it (first, or replacing what an earlier step shows)
  kDeleted,  ///< removed it (`null`, `$patch: delete`, a dropped field)
};

/// One step of a value's chain, oldest first.
struct Step {
  std::size_t layer = 0;  ///< index into Explanation::layers
  Action action = Action::kSet;
  /// The value after the step (null for kDeleted); for a mapping or a list
  /// item, the whole item.
  doc::Node value;
  /// Where the value was written, when it comes from an input file.
  Location location;
  /// Why, in words: "from spec.trainer.numProcPerNode at tj.yaml:12:21",
  /// "canonical form of \"1000m\"", "CRD default (manifests/...:892)".
  std::string detail;
};

/// The provenance of one node of a rendered object.
struct Field {
  /// The node's path in its object, list items keyed where their items carry
  /// a distinct name (`spec.replicatedJobs[name=node].template...env[name=X]`),
  /// by index otherwise; "" is the object itself.
  std::string path;
  /// Every step that wrote or deleted the value, oldest first. The last is
  /// the current value's source, or its deletion when `present` is false.
  std::vector<Step> chain;
  /// False for a value some layer wrote and a later one deleted: it is not
  /// in the rendered object.
  bool present = true;
  /// For a list item: why it sits where it sits ("appended after the
  /// runtime's items: the patch has no $setElementOrder"); "" otherwise.
  std::string order;
};

/// One rendered object and the provenance of each of its nodes.
struct ObjectExplanation {
  doc::Node object;
  /// Present fields in document order (the object's own order, which the
  /// YAML writer sorts), then deleted ones in the order they were deleted.
  std::vector<Field> fields;

  /// The field at `path` ("" for the object), or nullptr.
  const Field* Find(std::string_view path) const;
};

/// The explanation of one TrainJob or Flyte task.
struct Explanation {
  std::string subject;  ///< "TrainJob ml/llama" or "task ml/train"
  std::string target;   ///< "trainer-v2.3", "flyte-v1.16"
  std::vector<Layer> layers;
  std::vector<ObjectExplanation> objects;
  /// The input files the locations name, by name, with their bytes (the
  /// HTML page shows them); the formats that do not need them ignore them.
  struct InputFile {
    std::string name;
    std::string text;
  };
  std::vector<InputFile> files;
};

}  // namespace tjr::explain
