#include "report/format.h"

#include "admission/rules.h"

namespace tjr::report {
namespace {

// rendered/<kind>/<id>: the cluster's refusal of a rendered object, described
// by the admission catalogue's row of <id>.
constexpr std::string_view kRenderedPrefix = "rendered/";
constexpr std::string_view kRenderedHelp =
    "Fix the TrainJob or runtime field the finding points at: the message names the refused object, then "
    "upstream's field path inside it and the API server's or the webhook's text.";

const admission::RuleInfo* RenderedRule(std::string_view rule) {
  if (rule.substr(0, kRenderedPrefix.size()) != kRenderedPrefix) return nullptr;
  rule.remove_prefix(kRenderedPrefix.size());
  const std::size_t slash = rule.find('/');
  return slash == std::string_view::npos ? nullptr : admission::FindRule(rule.substr(slash + 1));
}

struct KnownRule {
  std::string_view id;
  std::string_view description;  ///< one line: the title
  std::string_view explanation;  ///< what it means, why the cluster or the controller cares
  std::string_view help;         ///< what to do
};

// What code scanning shows of a rule (SARIF reportingDescriptor): a title,
// what it means and why the cluster or the controller cares, and what to do.
// Keep in step with the rule list of docs/manual.md ("Findings"); a rule not
// listed here still gets a description from its first finding (sarif.cc).
constexpr KnownRule kKnownRules[] = {
    {"override-container-unknown",
     "an override names a container the target job does not have, so it has no image",
     "The override adds a new container to the job instead of changing one: Kubernetes refuses the Job "
     "(image: Required value) when the JobSet creates it.",
     "Name a container the runtime's job has (the message lists them), or give the new container an image."},
    {"container-image-missing", "a container of the rendered job has no image",
     "After the merge a container has no image: the Job controller's pods are refused.",
     "Set the image in the runtime or in spec.trainer.image."},
    {"volume-two-sources", "a volume of the rendered pod has more than one source",
     "A patch merged a second source (configMap, persistentVolumeClaim, ...) into a volume the runtime "
     "defines: the API server refuses the pod.",
     "Replace the volume in the override with $patch: replace, or rename it."},
    {"env-value-and-valuefrom", "an env var has both a non-empty value and valueFrom",
     "The merge kept value and valueFrom for one variable: the API server refuses the pod.",
     "Set value: null (or valueFrom: null) in the override to drop the other one."},
    {"volume-mount-without-volume", "a volumeMount names no volume of the pod",
     "The rendered pod mounts a volume nobody defines: the API server refuses it.",
     "Add the volume in the same override (or the runtime), or fix the mount's name."},
    {"num-nodes-zero", "spec.trainer.numNodes is 0",
     "The JobSet gets parallelism 0: nothing runs and the TrainJob never finishes.",
     "Set numNodes to 1 or more, or leave it out to take the runtime's."},
    {"field-pruned", "a key the release's CRD does not have, dropped by the API server",
     "The API server prunes unknown fields and kubectl apply (strict field validation) refuses them; "
     "the message names where the key probably belongs.",
     "Move the key where the message says (often one level deeper, under spec) or delete it."},
    {"duplicate-object", "two objects of the same kind, namespace and name; neither is rendered",
     "The cluster keeps whichever copy is applied last, so tjrender renders and checks neither.",
     "Delete or rename one copy; the message names the other."},
    {"duplicate-runtime", "the TrainJob's runtime is defined twice",
     "Which runtime the controller uses depends on which copy was applied last.",
     "Keep one definition of the runtime; the message points at both."},
    {"runtime-refused", "the TrainJob's runtime is among the inputs but the API server refuses it",
     "A runtime the API server refuses is never stored, so the TrainJob would find no runtime; the error "
     "at the runtime is the reason.",
     "Fix the runtime's error."},
    {"generated-name", "a TrainJob named by metadata.generateName",
     "It is rendered under the longest name the API server could generate; some values depend on the "
     "real name.",
     "Nothing to do: a note on what the placeholder name stands for."},
    {"api-version-not-served", "an apiVersion no Trainer release serves",
     "A cluster answers `no matches for kind ... in version ...`: the object is never created.",
     "Use trainer.kubeflow.org/v1alpha1."},
    {"go-int-range", "an integer outside int32 in an int32 field",
     "The CRD schema lets the API server store it, but the controller cannot decode the object.",
     "Use a value that fits in 32 bits."},
    {"ignore-without-reason", "a tjrender.dev/ignore annotation without a reason",
     "The ignore applies, but nobody can tell later why the warning was silenced.",
     "Add a tjrender.dev/ignore-reason annotation next to it."},
    {"secret-not-rendered",
     "rendered pods mount a Secret the Trainer controller creates and an offline render cannot",
     "The MPI SSH and Flux CURVE Secrets hold fresh keys the controller makes; applied without the "
     "controller, nothing creates them.",
     "Apply through the Trainer controller, or create the Secret yourself."},
    {"namespace-required",
     "a rendered object names the namespace, which a Helm post-renderer is not told",
     "Helm does not pass the release namespace to a post-renderer.",
     "Pass --namespace to tjrender post-render."},
    {"runtime-in-other-namespace", "the TrainingRuntime is defined only in another namespace",
     "A TrainingRuntime is looked up in the TrainJob's namespace only.",
     "Pass --namespace, set the TrainJob's namespace, or use a ClusterTrainingRuntime."},
    {"mpi-hostfile-too-large", "the MPI hostfile would pass a ConfigMap's 1 MiB",
     "The API server refuses the hostfile ConfigMap, so the TrainJob never starts.",
     "Use fewer nodes or slots per node."},
    {"trainer-fields-ignored", "a spec.trainer field the controller applies to nothing",
     "No replicatedJob of the runtime carries trainer.kubeflow.org/trainjob-ancestor-step: trainer, and the "
     "Trainer controller puts spec.trainer only into the node container of such a job.",
     "Label the runtime's trainer job with trainer.kubeflow.org/trainjob-ancestor-step: trainer."},
    {"mpi-node-missing", "an MPI runtime without the node job or node container the MPI plugin uses",
     "The MPI plugin writes the hostfile from the job named node and mounts the SSH keys into containers "
     "named node only: mpirun gets an empty hostfile or no keys.",
     "Name the worker job node, and the containers of the node and launcher jobs node."},
    {"torch-env-not-injected", "a Torch TrainJob without spec.trainer on a runtime of several nodes or processes",
     "The Torch plugin injects the PET_* environment and the port only when spec.trainer is set: each node "
     "runs torchrun on its own.",
     "Add `trainer: {}` under spec."},
    {"unrendered-template", "a template (Helm, envsubst) read as a manifest",
     "`{{ ... }}` or `${VAR}` where a value should be: the file is not what the cluster gets.",
     "Render it first and pipe the result to `tjrender check -`."},
    {"target-pin-conflict", "the repository pins different Trainer releases",
     "Conflicting pins: the default target applies.",
     "Make the pins agree, or set target: in .tjrender.yaml."},
    {"target-pin-unsupported", "the repository pins a Trainer release no target emulates",
     "The default target applies.", "Set target: in .tjrender.yaml or pass --target."},
    {"git-link-not-followed", "a symbolic link in a Git revision, not followed",
     "Under --rev/--since a link's target is not read.", "Name the file itself if it should be read."},
    {"git-submodule-not-read", "a Git submodule, not read", "Under --rev/--since submodules are left out.",
     "Check the submodule's own repository."},
    {"rendered-stale", "the rendered file differs from what render writes now",
     "The committed rendered tree is out of date.", "Run `tjrender render PATH... --out DIR` and commit it."},
    {"rendered-missing", "a TrainJob has no file in the rendered tree",
     "The committed rendered tree is out of date.", "Run `tjrender render PATH... --out DIR` and commit it."},
    {"rendered-extra", "a file in the rendered tree no TrainJob renders",
     "Its TrainJob is gone or no longer renders.",
     "Run `tjrender render PATH... --out DIR` (it removes the files it wrote); delete files it did not write."},
    {"own-output", "a file this run writes (its redirected stdout, a --report file), left out of the inputs",
     "`tjrender render . -o - > rendered.yaml` creates the output inside the tree being read; reading it "
     "would render the run's own output.",
     "Nothing to do; write the output outside the tree to keep it out of later runs."},
    {"runtime-snapshot-kept", "a running TrainJob keeps the runtime snapshot its controller took",
     "At v2.3 the controller renders a TrainJob it created against the runtime as it was then: a change "
     "to the runtime does not reach it.",
     "Recreate the TrainJob to pick up the changed runtime."},
    {"patch-container-trainer", "a runtime patch names container trainer; the runtimes call it node",
     "The documentation's example patches container `trainer`, so the controller adds an image-less "
     "container that Kubernetes refuses.",
     "Name the container node (or the container the runtime's job has)."},
    {"patch-job-unknown", "a runtime patch names a replicatedJob the runtime does not have",
     "At v2.3 the patch is merged into the whole JobSet spec: an unknown job is added, without a template "
     "the JobSet webhook accepts.",
     "Name a replicatedJob of the runtime."},
    {"patch-manager-overlap", "two managers' runtime patches set the same field",
     "Patches merge in manager order: the later one silently wins.",
     "Let one manager own the field."},
    {"patch-time-written", "a runtime patch sets time, which the mutating webhook owns",
     "The Trainer webhook writes `time` itself; a value in Git is overwritten.", "Remove `time`."},
    {"flyte-template-container-dropped", "a PodTemplate container that applies to no container of the Pod",
     "flytepropeller merges a template container only into the primary container (or all, by the name "
     "`default`); any other is dropped.",
     "Name it `primary` or `default`, or remove it."},
    {"flyte-template-value-sticky", "a PodTemplate sets a pod flag to true that no task can turn off",
     "Flyte merges with mergo: a false or zero value never overrides a true one.",
     "Set the flag in the tasks that need it, not in the template."},
    {"flyte-duplicate-env", "two env entries of one name after Flyte appends the task's to the template's",
     "Lists append in Flyte's merge; Kubernetes keeps the last entry of a name.",
     "Keep the variable in one place."},
    {"flyte-secret-injected-at-admission", "a Flyte secret the pod webhook injects at admission",
     "flytepropeller writes the secret as an annotation; the secret webhook adds env or volumes when the "
     "Pod is created, which an offline render cannot see.",
     "Nothing to do unless the webhook is not installed."},
    {"flyte-console-url-unknown", "a task with a console link but no execution.consoleUrl",
     "The cluster's Pod has a FLYTE_EXECUTION_URL the rendered one lacks.",
     "Give execution.consoleUrl in the execution input."},
    {"flyte-task-resources-assumed", "flyteadmin's built-in task resources assumed",
     "No flyteadmin task_resources input was given, so its defaults are used for every task.",
     "Pass the cluster's flyteadmin configuration (--flyte-config or its ConfigMap)."},
    {"flyte-pod-template-other-namespace", "the default PodTemplate exists only in another namespace",
     "flytepropeller looks the default-pod-template-name PodTemplate up in the task's namespace and its own only.",
     "Create the PodTemplate in the task's namespace or propeller's."},
    {"input-changed", "an input file changed while tjrender read it",
     "The run would mix two versions of the file.", "Run again once nothing writes to it."},
    {"input-too-large", "an input over one of tjrender's limits (bytes per file or document, nodes per document)",
     "The message names the limit and its value. No object that large reaches a cluster: kube-apiserver decodes "
     "request bodies of at most 3 MiB and etcd stores values of at most 1.5 MiB.",
     "Split the file, or shrink the object (a generated list, an embedded file) to what the cluster can store."},
    {"upstream/invalid-value", "the API server or the Trainer webhook: Invalid value",
     "The cluster refuses the object with this message (apimachinery field error Invalid).",
     "Fix the field the message names."},
    {"upstream/required-value", "the API server or the Trainer webhook: Required value",
     "The cluster refuses the object: a required field is missing.", "Set the field the message names."},
    {"upstream/forbidden", "the API server or the Trainer webhook: Forbidden",
     "The cluster refuses the object or the update.", "Change or remove the field the message names."},
    {"upstream/duplicate-value", "the API server or the Trainer webhook: Duplicate value",
     "The cluster refuses a list with two entries of one key.", "Remove or rename one entry."},
    {"upstream/unsupported-value", "the API server or the Trainer webhook: Unsupported value",
     "The cluster refuses a value outside the allowed set (the message lists it).", "Use a supported value."},
    {"upstream/not-found", "the API server or the Trainer webhook: Not found",
     "Something the object refers to does not exist (a runtime, a job, a container).",
     "Create it first, or fix the reference."},
    {"upstream/too-long", "the API server or the Trainer webhook: Too long",
     "A name or value passes its length limit.", "Shorten it."},
    {"upstream/too-many", "the API server or the Trainer webhook: Too many",
     "A list has more entries than allowed.", "Remove entries."},
    {"upstream/internal-error", "the API server or the Trainer webhook: Internal error",
     "The cluster could not process the object.", "Check the message."},
    {"upstream/error", "an error the cluster would return",
     "The API server or the Trainer controller refuses the object with this message.",
     "Fix what the message names."},
    {"upstream/warning", "a warning the cluster would return",
     "The API server or the Trainer controller accepts the object with this warning.", "Check the message."},
    {"input", "input that cannot be used (unreadable, malformed, over a limit)",
     "The file could not be read; every other file is still checked.", "Fix the file at the line named."},
};
}  // namespace

std::optional<Format> ParseFormat(std::string_view name) {
  if (name == "text") return Format::kText;
  if (name == "json") return Format::kJson;
  if (name == "junit") return Format::kJunit;
  if (name == "sarif") return Format::kSarif;
  if (name == "github") return Format::kGithub;
  return std::nullopt;
}

const char* FormatNames() { return "text, json, junit, sarif, github"; }

std::string_view RuleDescription(std::string_view rule) {
  if (const admission::RuleInfo* rendered = RenderedRule(rule)) return rendered->covers;
  for (const KnownRule& known : kKnownRules) {
    if (known.id == rule) return known.description;
  }
  return {};
}

std::vector<std::string_view> DescribedRules() {
  std::vector<std::string_view> ids;
  for (const KnownRule& known : kKnownRules) ids.push_back(known.id);
  return ids;
}

RuleHelp HelpOf(std::string_view rule) {
  if (const admission::RuleInfo* rendered = RenderedRule(rule)) {
    return {rendered->covers, rendered->upstream, kRenderedHelp};
  }
  for (const KnownRule& known : kKnownRules) {
    if (known.id == rule) return {known.description, known.explanation, known.help};
  }
  return {};
}

std::string Write(Format format, const Results& run, const WriteOptions& options) {
  switch (format) {
    case Format::kText: return WriteText(run);
    case Format::kJson: return WriteJson(run);
    case Format::kJunit: return WriteJunit(run);
    case Format::kSarif: return WriteSarif(run, options);
    case Format::kGithub: return WriteGithub(run, options);
  }
  return WriteText(run);
}

std::string WriteText(const Results& run) {
  std::string out;
  for (const Finding& f : run.findings) out += f.diagnostic.ToString() + "\n";
  out += SummaryLine(run) + "\n";
  return out;
}

}  // namespace tjr::report
