#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "app/findings.h"
#include "app/render_config.h"
#include "doc/node.h"
#include "pipeline/pipeline.h"
#include "source/loader.h"

// What the integrations (Argo CD's plugin, the Helm post-renderer, the KRM
// function) share: the pipeline over the manifests a tool hands over, with
// findings collected, and the namespace the tool does not tell.
namespace tjr::app {

/// Runs the pipeline over `manifests`: loader findings, ignore rules
/// (`config` and annotations) and every TrainJob's findings go to
/// `findings`; returns each TrainJob's rendered objects by ObjectRef::Key(),
/// ready to apply without the Trainer controller (pipeline::PrepareForApply).
/// `render_mode`: they will be applied, so Secrets nothing creates are
/// warnings (in validate mode the controller creates them).
std::map<std::string, std::vector<doc::Node>> ValidateAndRender(
    const source::ManifestSet& manifests, const RepoConfig& config,
    pipeline::PipelineOptions options, Findings* findings, bool render_mode = false);

/// trainer.kubeflow.org TrainJob, or one of the two runtime kinds.
bool IsTrainJob(const doc::Node& object);
bool IsRuntime(const doc::Node& object);

/// The key ValidateAndRender files a TrainJob's objects under, with the
/// namespace it would get (`default_namespace` when it has none).
std::string TrainJobKey(const doc::Node& trainjob, const std::string& default_namespace);

/// The namespace objects written without one are rendered in when the tool
/// that applies them puts them in a namespace it does not tell tjrender
/// (Helm's release namespace, kustomize's or kpt's): a runtime without a
/// namespace still lives beside its TrainJob, and LeaveNamespaceUnset
/// removes it from the output.
inline constexpr char kUntoldNamespace[] = "tjrender-untold-namespace";

/// Whether `object` names a non-empty metadata.namespace.
bool HasNamespace(const doc::Node& object);

/// The objects a TrainJob written without a namespace creates, rendered in
/// kUntoldNamespace, lose their namespace. One whose content still names it
/// (Flux's broker configuration addresses NAME.NAMESPACE.svc.cluster.local)
/// cannot be right without knowing it: the returned `namespace-required`
/// finding says so, ending with `why_untold`: why the namespace is unknown
/// and what to do.
std::optional<Diagnostic> LeaveNamespaceUnset(const doc::Node& trainjob, std::string_view why_untold,
                                              std::vector<doc::Node>* objects);

/// Objects as a YAML stream (`---` between them), kubectl's layout.
std::string YamlStream(const std::vector<doc::Node>& objects);

}  // namespace tjr::app
