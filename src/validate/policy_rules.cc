// The ML-policy and pod-group plugins' Validate at Trainer v2.1.0:
// plugins/torch/torch.go:55-94 + torchtune.go:35-125, plugins/mpi/mpi.go:86-105,
// plugins/volcano/volcano.go:87-128.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "typed/quantity.h"
#include "validate/go_json.h"
#include "validate/policy_helpers.h"
#include "validate/rules.h"

namespace tjr::validate {
namespace {

// isUseQLoraFinetune: quantize_base without use_dora (the first use_dora
// argument ends the scan).
bool UsesQLora(const doc::Node* args) {
  bool quantize = false;
  for (const doc::Node& arg : doc::Items(args)) {
    if (!arg.is_string()) continue;
    if (arg.string_value().find("model.use_dora") != std::string::npos) return false;
    if (arg.string_value().find("model.quantize_base") != std::string::npos) quantize = true;
  }
  return quantize;
}

// The config suffix getRecipeAndConfig chooses.
std::string ConfigSuffix(std::int64_t num_nodes, const doc::Node& npp, int gpu, const doc::Node* args) {
  const bool npp_is_one = npp.is_int() && npp.int_value() == 1;
  if (num_nodes == 1 && (npp_is_one || gpu == 1)) {
    if (UsesQLora(args)) return "_qlora_single_device";
    if (AnyArgContains(args, "model.lora_attn_modules")) return "_lora_single_device";
    return "_full_single_device";
  }
  if (num_nodes == 1 && UsesQLora(args)) return "_qlora";
  if (num_nodes == 1 && AnyArgContains(args, "model.lora_attn_modules")) return "_lora";
  if (num_nodes > 1) return "_full_multinode";
  return "_full";
}

void CheckTorchTune(const WebhookInfo& info, const doc::Node& trainer, const doc::Node& npp, Report* report) {
  const doc::Node* runtime_ref = doc::At(doc::At(info.trainjob, "spec"), "runtimeRef");
  const doc::Node* runtime_name = doc::At(runtime_ref, "name");
  const std::string name = doc::StringAt(runtime_ref, "name");
  const std::string model = ModelOf(name);
  static const std::set<std::string> kSupported = {"llama3_2/1B", "llama3_2/3B", "llama3_3/70B", "qwen2_5/1.5B"};
  if (kSupported.count(model) == 0) {
    report->Add({ErrorType::kInvalid, "spec.runtimeRef.name", BadValue::String(name),
                 "must have a supported pretrained model, invalid model configured: " + model},
                Either(runtime_name, runtime_ref));
  }
  const doc::Node* num_nodes_node = doc::At(&trainer, "numNodes");
  if (num_nodes_node == nullptr || !num_nodes_node->is_int()) {
    // `*newObj.Spec.Trainer.NumNodes` on a nil pointer: the webhook panics and
    // controller-runtime answers with the recovered panic alone.
    report->Panic("panic: runtime error: invalid memory address or nil pointer dereference [recovered]", &trainer);
    return;
  }
  const std::int64_t num_nodes = num_nodes_node->int_value();
  if (num_nodes > 1 && model != "llama3_3/70B") {
    report->Add({ErrorType::kInvalid, "spec.trainer.numNodes", BadValue::Int(num_nodes),
                 "must be 1 for " + model + " model"},
                num_nodes_node);
  }
  const doc::Node* own_resources = doc::At(&trainer, "resourcesPerNode");
  bool found = false;
  const doc::Node* resources = own_resources != nullptr ? own_resources : RuntimeResources(info, &found);
  const std::string config = model + ConfigSuffix(num_nodes, npp, GpuPerNode(resources), doc::At(&trainer, "args"));
  if (config.find("_qlora") == std::string::npos) return;
  if (model == "qwen2_5/1.5B") {
    report->Add({ErrorType::kInvalid, "spec.runtimeRef.name", BadValue::String(name),
                 "QLoRA is not supported for " + model + " model"},
                Either(runtime_name, runtime_ref));
  }
  if (config.find("_qlora_single_device") == std::string::npos &&
      (model == "llama3_2/1B" || model == "llama3_2/3B")) {
    report->Add({ErrorType::kInvalid, "spec.trainer.numProcPerNode", BadValue::Json(IntOrStringJson(npp)),
                 "must be auto or 1 for " + model + " model when using QLoRA"},
                &npp);
    report->Add({ErrorType::kInvalid, "spec.trainer.resourcesPerNode", BadValue::Json(ResourcesJson(own_resources, info.options->version)),
                 "must have gpu resource with value 1 for " + model + " model when using QLoRA"},
                Either(own_resources, &trainer));
  }
}

}  // namespace

void CheckTorchPlugin(const WebhookInfo& info, Report* report) {
  const doc::Node* trainer = Trainer(info);
  const doc::Node* npp = doc::At(trainer, "numProcPerNode");
  if (doc::At(info.ml_policy, "torch") == nullptr || npp == nullptr) return;
  if (npp->is_string()) {
    const std::string& value = npp->string_value();
    if (value != "auto" && value != "cpu" && value != "gpu") {
      report->Add({ErrorType::kInvalid, "spec.trainer.numProcPerNode", BadValue::Json(IntOrStringJson(*npp)),
                   "must have an int value or [auto cpu gpu]"},
                  npp);
    }
  }
  static const std::set<std::string> kReserved = {"PET_NNODES", "PET_NPROC_PER_NODE", "PET_NODE_RANK",
                                                  "PET_MASTER_ADDR", "PET_MASTER_PORT"};
  const doc::Node* env = doc::At(trainer, "env");
  std::set<std::string> used;
  const doc::Node* first_reserved = nullptr;
  for (const doc::Node& var : doc::Items(env)) {
    if (kReserved.count(doc::StringAt(&var, "name")) != 0) {
      used.insert(doc::StringAt(&var, "name"));
      if (first_reserved == nullptr) first_reserved = &var;
    }
  }
  if (!used.empty()) {
    std::string names = "[";
    for (const std::string& name : used) names += (names.size() > 1 ? " " : "") + name;
    report->Add({ErrorType::kInvalid, "spec.trainer.env", BadValue::Json(EnvListJson(*env, info.options->version)),
                 "must not have reserved envs, invalid envs configured: " + names + "]"},
                first_reserved);
  }
  const std::vector<doc::Node>& command = doc::Items(doc::At(trainer, "command"));
  if (command.size() == 2 && command[0].is_string() && command[0].string_value() == "tune" &&
      command[1].is_string() && command[1].string_value() == "run") {
    CheckTorchTune(info, *trainer, *npp, report);
  }
}

void CheckMpiPlugin(const WebhookInfo& info, Report* report) {
  const doc::Node* mpi = doc::At(info.ml_policy, "mpi");
  if (mpi == nullptr) return;
  const doc::Node* trainer = Trainer(info);
  if (const doc::Node* npp = doc::At(trainer, "numProcPerNode"); npp != nullptr && !npp->is_int()) {
    report->Add({ErrorType::kInvalid, "spec.trainer.numProcPerNode", BadValue::Json(IntOrStringJson(*npp)),
                 "must have an int value for MPI TrainJob"},
                npp);
  }
  if (trainer == nullptr) return;
  const doc::Node* num_nodes = doc::At(trainer, "numNodes");
  const std::int64_t nodes = num_nodes != nullptr && num_nodes->is_int() ? num_nodes->int_value() : 1;
  const doc::Node* as_node = doc::At(mpi, "runLauncherAsNode");
  const bool launcher_as_node = as_node != nullptr && as_node->is_bool() && as_node->bool_value();
  if (nodes >= 2 && launcher_as_node && (!info.HasPodSet("launcher") || !info.HasPodSet("node"))) {
    report->Add({ErrorType::kInvalid, "spec.trainer.numNodes", BadValue::Json(std::to_string(nodes)),
                 "must have 1 when MPI trainingRuntime with enabled runLauncherAsNode does not have either launcher "
                 "and node"},
                num_nodes);
  }
}

void CheckVolcanoPlugin(const WebhookInfo& info, Report* report) {
  if (doc::At(info.pod_group_policy, "volcano") == nullptr) return;
  constexpr std::string_view kQueue = "scheduling.volcano.sh/queue-name";
  for (const auto& [key, value] : info.annotations) {
    if (key == kQueue && value.empty()) {
      // The value is the TrainJob's when it sets one, else the runtime template's.
      const doc::Node* at = doc::At(doc::At(doc::At(info.trainjob, "spec"), "annotations"), kQueue);
      if (at == nullptr) at = doc::At(info.runtime_annotations, kQueue);
      report->Add({ErrorType::kInvalid, "spec.annotations[" + std::string(kQueue) + "]", BadValue::String(""),
                   "Volcano queue name must not be empty"},
                  Either(at, info.trainjob));
    }
  }
  if (!info.options->priority_classes.has_value()) return;
  const std::vector<std::string>& known = *info.options->priority_classes;
  for (const doc::Node& job : doc::Items(doc::At(&info.jobset_spec, "replicatedJobs"))) {
    const doc::Node* pod_spec = doc::At(doc::At(doc::At(doc::At(&job, "template"), "spec"), "template"), "spec");
    const doc::Node* pc = doc::At(pod_spec, "priorityClassName");
    // An empty name is dropped by the apply configuration (omitempty), so
    // upstream never looks it up.
    if (pc == nullptr || !pc->is_string() || pc->string_value().empty()) continue;
    const std::string& name = pc->string_value();
    if (name == "system-cluster-critical" || name == "system-node-critical") return;
    if (std::find(known.begin(), known.end(), name) != known.end()) continue;
    // The plugin reads through the manager's cached client, whose NotFound
    // names the Kind (controller-runtime's cache reader), as for runtimes.
    const std::string client_error = "PriorityClass.scheduling.k8s.io \"" + name + "\" not found";
    report->Add({ErrorType::kInvalid, "spec.templateSpec.priorityClassName", BadValue::String(name),
                 "PriorityClass " + gocompat::Quote(name) + " doesn't exist: " + client_error},
                pc);
  }
}

}  // namespace tjr::validate
