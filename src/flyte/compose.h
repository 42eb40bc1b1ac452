#pragma once

#include <map>
#include <string>

#include "base/diagnostic.h"
#include "doc/node.h"
#include "flyte/config.h"
#include "flyte/release.h"
#include "flyte/task.h"

// Building a task's Pod as the Flyte pod plugin and flytepropeller do
// (reference: flyte-podtemplate.md §1.3 steps A-J, §2).
namespace tjr::flyte {

/// A runtime PodTemplate as the store holds it.
struct StoredTemplate {
  doc::Node metadata;  ///< template.metadata, ObjectMeta Go form
  doc::Node spec;      ///< template.spec, PodSpec Go form
  doc::Node written;   ///< template.spec as written, for warning locations
  Location location;
};

/// PodTemplateStore: name -> namespace -> template.
using TemplateStore = std::map<std::string, std::map<std::string, StoredTemplate>>;

/// Rule ids of the warnings tjrender adds beyond upstream.
inline constexpr std::string_view kRuleDroppedContainer = "flyte-template-container-dropped";
inline constexpr std::string_view kRuleStickyValue = "flyte-template-value-sticky";
inline constexpr std::string_view kRuleDuplicateEnv = "flyte-duplicate-env";
inline constexpr std::string_view kRuleSecretInjected = "flyte-secret-injected-at-admission";
inline constexpr std::string_view kRuleConsoleUrlUnknown = "flyte-console-url-unknown";
inline constexpr std::string_view kRuleTaskResourcesAssumed = "flyte-task-resources-assumed";
/// A note: the default-pod-template-name template is among the inputs only
/// in namespaces propeller does not look in.
inline constexpr std::string_view kRuleTemplateOtherNamespace = "flyte-pod-template-other-namespace";

struct ComposeTrace;  // flyte/trace.h

/// Step G alone (MergeWithBasePodTemplate): the base pod spec and ObjectMeta
/// maps merged onto a runtime template.
struct TemplateMerge {
  doc::Node spec;
  doc::Node metadata;
};
TemplateMerge MergeOntoTemplate(const StoredTemplate& found, const doc::Node& spec, const std::string& primary,
                                const StringMap& labels, const StringMap& annotations, Version version);

/// The Pod flytepropeller creates for `task`, as json.Marshal prints it
/// (without `status`), and warnings. Errors are upstream's (e.g.
/// "PodTemplate 'x' does not exist"). With `trace`, what explain needs of
/// the steps is recorded there.
Result<doc::Node> ComposePod(const Task& task, const PluginConfig& config,
                             const TemplateStore& store, Version version, Diagnostics* warnings,
                             ComposeTrace* trace = nullptr);

}  // namespace tjr::flyte
