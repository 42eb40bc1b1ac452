// The ML-policy plugins' Validate from Trainer v2.2.0 on (runtimepatches
// spec §3.5, §5.13-§5.14): plugins/torch/torch.go + torchtune.go,
// plugins/mpi/mpi.go and plugins/xgboost/xgboost.go at v2.3.0; v2.2.0
// differs where noted. numProcPerNode is an int32 in these releases.
#include <set>
#include <string>
#include <vector>

#include "validate/go_json.h"
#include "validate/policy_helpers.h"

namespace tjr::validate {
namespace {

bool IsV23(const WebhookInfo& info) { return trainer::ReleaseOf(info.options->version).webhook_v23_rules; }

// isUseQLoraFinetune: v2.2.0 matches substrings (the first use_dora ends
// the scan); v2.3.0 needs "key=value" args whose value is "true" in any case.
bool BoolArgEnabled(const doc::Node* args, std::string_view item) {
  for (const doc::Node& arg : doc::Items(args)) {
    if (!arg.is_string()) continue;
    const std::string& text = arg.string_value();
    const std::size_t eq = text.find('=');
    if (eq == std::string::npos || text.substr(0, eq).find(item) == std::string::npos) continue;
    std::string value = text.substr(eq + 1);
    const std::string space = " \t\n\r\v\f";
    const std::size_t first = value.find_first_not_of(space);
    value = first == std::string::npos ? "" : value.substr(first, value.find_last_not_of(space) - first + 1);
    for (char& c : value) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (value == "true") return true;
  }
  return false;
}

bool UsesQLora(const WebhookInfo& info, const doc::Node* args) {
  if (IsV23(info)) return !BoolArgEnabled(args, "model.use_dora") && BoolArgEnabled(args, "model.quantize_base");
  bool quantize = false;
  for (const doc::Node& arg : doc::Items(args)) {
    if (!arg.is_string()) continue;
    if (arg.string_value().find("model.use_dora") != std::string::npos) return false;
    if (arg.string_value().find("model.quantize_base") != std::string::npos) quantize = true;
  }
  return quantize;
}

std::string ConfigSuffix(const WebhookInfo& info, std::int64_t num_nodes, const doc::Node* npp, int gpu,
                         const doc::Node* args) {
  const bool npp_is_one = npp != nullptr && npp->is_int() && npp->int_value() == 1;
  if (num_nodes == 1 && (npp_is_one || gpu == 1)) {
    if (UsesQLora(info, args)) return "_qlora_single_device";
    if (AnyArgContains(args, "model.lora_attn_modules")) return "_lora_single_device";
    return "_full_single_device";
  }
  if (num_nodes == 1 && UsesQLora(info, args)) return "_qlora";
  if (num_nodes == 1 && AnyArgContains(args, "model.lora_attn_modules")) return "_lora";
  if (num_nodes > 1) return "_full_multinode";
  return "_full";
}

void CheckTorchTune(const WebhookInfo& info, const doc::Node& trainer, Report* report) {
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
  const std::int64_t num_nodes = num_nodes_node != nullptr && num_nodes_node->is_int() ? num_nodes_node->int_value() : 1;
  if (num_nodes > 1 && model != "llama3_3/70B") {
    report->Add({ErrorType::kInvalid, "spec.trainer.numNodes", BadValue::Int(num_nodes),
                 "must be 1 for " + model + " model"},
                Either(num_nodes_node, &trainer));
  }
  const doc::Node* npp = doc::At(&trainer, "numProcPerNode");
  const doc::Node* own_resources = doc::At(&trainer, "resourcesPerNode");
  bool found = false;
  const doc::Node* resources = own_resources != nullptr ? own_resources : RuntimeResources(info, &found);
  const doc::Node* args = doc::At(&trainer, "args");
  const std::string config = model + ConfigSuffix(info, num_nodes, npp, GpuPerNode(resources), args);
  if (config.find("_qlora") != std::string::npos) {
    if (model == "qwen2_5/1.5B") {
      report->Add({ErrorType::kInvalid, "spec.runtimeRef.name", BadValue::String(name),
                   "QLoRA is not supported for " + model + " model"},
                  Either(runtime_name, runtime_ref));
    }
    if (config.find("_qlora_single_device") == std::string::npos &&
        (model == "llama3_2/1B" || model == "llama3_2/3B")) {
      const std::string npp_json = npp != nullptr && npp->is_int() ? std::to_string(npp->int_value()) : "\"auto\"";
      report->Add({ErrorType::kInvalid, "spec.trainer.numProcPerNode", BadValue::Json(npp_json),
                   "must be auto or 1 for " + model + " model when using QLoRA"},
                  Either(npp, &trainer));
      report->Add({ErrorType::kInvalid, "spec.trainer.resourcesPerNode", BadValue::Json(ResourcesJson(own_resources, info.options->version)),
                   "must have gpu resource with value 1 for " + model + " model when using QLoRA"},
                  Either(own_resources, &trainer));
    }
  }
  if (!IsV23(info)) return;
  if (num_nodes > 1 && (AnyArgContains(args, "model.lora_attn_modules") || UsesQLora(info, args))) {
    report->Add({ErrorType::kInvalid, "spec.trainer.numNodes", BadValue::Int(num_nodes),
                 "LoRA fine-tuning is not supported for multi-node training in TorchTune"},
                Either(num_nodes_node, &trainer));
  }
  static const std::set<std::string> kImmutable = {"output_dir", "tokenizer.path", "checkpointer.checkpoint_dir",
                                                   "tokenizer.merges_file"};
  const std::vector<doc::Node>& items = doc::Items(args);
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (!items[i].is_string()) continue;
    const std::string& arg = items[i].string_value();
    const std::string key = arg.substr(0, arg.find('='));
    if (kImmutable.count(key) == 0) continue;
    report->Add({ErrorType::kInvalid, "spec.trainer.args[" + std::to_string(i) + "]", BadValue::String(arg),
                 "must not set immutable config " + gocompat::Quote(key) + " in trainer args; it is managed by the runtime"},
                &items[i]);
  }
}

// validateEnvInjectionTargets (v2.3.0): each named container must exist in
// the named job (containers, then init containers).
void CheckEnvInjection(const WebhookInfo& info, const doc::Node& torch, Report* report) {
  for (const doc::Node& target : doc::Items(doc::At(doc::At(&torch, "envInjection"), "targets"))) {
    const std::string job = doc::StringAt(&target, "jobName");
    const doc::Node* pod_spec = nullptr;
    for (const doc::Node& rjob : doc::Items(doc::At(&info.jobset_spec, "replicatedJobs"))) {
      if (doc::StringAt(&rjob, "name") == job) {
        pod_spec = doc::At(doc::At(doc::At(doc::At(&rjob, "template"), "spec"), "template"), "spec");
        break;  // FindPodSetByName: the first PodSet of that name
      }
    }
    for (const doc::Node& name : doc::Items(doc::At(&target, "containerNames"))) {
      const std::string container = name.is_string() ? name.string_value() : "";
      bool found = false;
      for (std::string_view list : {"containers", "initContainers"}) {
        for (const doc::Node& c : doc::Items(doc::At(pod_spec, list))) found = found || doc::StringAt(&c, "name") == container;
      }
      if (found) continue;
      // EnvInjectionTarget {jobName,omitempty; containerNames,omitempty}.
      doc::Node value = doc::Node::Mapping();
      if (!job.empty()) value.Set("jobName", doc::Node::String(job));
      if (const doc::Node* names = doc::At(&target, "containerNames"); names != nullptr && !doc::Items(names).empty()) {
        value.Set("containerNames", *names);
      }
      report->Add({ErrorType::kInvalid, "spec.runtimeRef", BadValue::Json(WriteOrdered(value)),
                   "envInjection target podSet " + gocompat::Quote(job) + " container " + gocompat::Quote(container) +
                       " not found in runtime template"},
                  &name);
    }
  }
}

// "must not have reserved envs, invalid envs configured: [A B]" (sets.List order).
void CheckReservedEnv(const WebhookInfo& info, const doc::Node* trainer, const std::set<std::string>& reserved,
                      Report* report) {
  const doc::Node* env = doc::At(trainer, "env");
  std::set<std::string> used;
  const doc::Node* first = nullptr;
  for (const doc::Node& var : doc::Items(env)) {
    if (reserved.count(doc::StringAt(&var, "name")) == 0) continue;
    used.insert(doc::StringAt(&var, "name"));
    if (first == nullptr) first = &var;
  }
  if (used.empty()) return;
  std::string names;
  for (const std::string& name : used) names += (names.empty() ? "" : " ") + name;
  report->Add({ErrorType::kInvalid, "spec.trainer.env", BadValue::Json(EnvListJson(*env, info.options->version)),
               "must not have reserved envs, invalid envs configured: [" + names + "]"},
              first);
}

}  // namespace

void CheckTorchPluginV2(const WebhookInfo& info, Report* report) {
  const doc::Node* torch = doc::At(info.ml_policy, "torch");
  if (torch == nullptr) return;
  const doc::Node* trainer = Trainer(info);
  // v2.2.0 returns early without spec.trainer; v2.3.0 checks envInjection first.
  if (IsV23(info)) CheckEnvInjection(info, *torch, report);
  if (trainer == nullptr || trainer->is_null()) return;
  CheckReservedEnv(info, trainer, {"PET_NNODES", "PET_NPROC_PER_NODE", "PET_NODE_RANK", "PET_MASTER_ADDR", "PET_MASTER_PORT"},
                   report);
  const std::vector<doc::Node>& command = doc::Items(doc::At(trainer, "command"));
  if (command.size() == 2 && command[0].is_string() && command[0].string_value() == "tune" &&
      command[1].is_string() && command[1].string_value() == "run") {
    CheckTorchTune(info, *trainer, report);
  }
}

void CheckMpiPluginV2(const WebhookInfo& info, Report* report) {
  const doc::Node* mpi = doc::At(info.ml_policy, "mpi");
  if (mpi == nullptr) return;
  const doc::Node* trainer = Trainer(info);
  if (trainer == nullptr || trainer->is_null()) return;
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
  // Reserved OpenMPI envs (v2.3.0).
  if (IsV23(info)) {
    CheckReservedEnv(info, trainer, {"OMPI_MCA_orte_default_hostfile", "OMPI_MCA_plm_rsh_args",
                               "OMPI_MCA_orte_keep_fqdn_hostnames", "OMPI_MCA_orte_set_default_slots"},
                     report);
  }
}

void CheckXGBoostPlugin(const WebhookInfo& info, Report* report) {
  if (doc::At(info.ml_policy, "xgboost") == nullptr) return;
  const doc::Node* env = doc::At(Trainer(info), "env");
  static const std::set<std::string> kReserved = {"DMLC_TRACKER_URI", "DMLC_TRACKER_PORT", "DMLC_TASK_ID",
                                                  "DMLC_NUM_WORKER"};
  const std::vector<doc::Node>& items = doc::Items(env);
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string name = doc::StringAt(&items[i], "name");
    if (kReserved.count(name) == 0) continue;
    report->Add({ErrorType::kForbidden, "spec.trainer.env[" + std::to_string(i) + "]", BadValue::Omit(),
                 name + " is reserved for the XGBoost runtime"},
                &items[i]);
  }
}

// plugins/flux/flux.go Validate. v2.2.0 checks the runtime's numProcPerNode
// only; v2.3.0 lets the TrainJob's replace it. The reserved installer is
// looked for in the init containers of PodSets named `node` (merged
// template, before the plugin adds its own).
void CheckFluxPlugin(const WebhookInfo& info, Report* report) {
  const doc::Node* flux = doc::At(info.ml_policy, "flux");
  if (flux == nullptr || flux->is_null()) return;
  const doc::Node* npp = doc::At(flux, "numProcPerNode");
  const doc::Node* trainer = Trainer(info);
  if (const doc::Node* own = doc::At(trainer, "numProcPerNode"); IsV23(info) && own != nullptr && !own->is_null()) {
    npp = own;
  }
  if (npp != nullptr && npp->is_int() && npp->int_value() < 1) {
    report->Add({ErrorType::kInvalid, "spec.trainer.numProcPerNode", BadValue::Int(npp->int_value()),
                 "must be greater than or equal to 1 for Flux TrainJob"},
                Either(npp, trainer));
  }
  for (const doc::Node& job : doc::Items(doc::At(&info.jobset_spec, "replicatedJobs"))) {
    if (doc::StringAt(&job, "name") != "node") continue;
    const doc::Node* pod_spec = doc::At(doc::At(doc::At(doc::At(&job, "template"), "spec"), "template"), "spec");
    for (const doc::Node& c : doc::Items(doc::At(pod_spec, "initContainers"))) {
      if (doc::StringAt(&c, "name") != "flux-installer") continue;
      report->Add({ErrorType::kInvalid, "spec.trainer.initContainers", BadValue::String("flux-installer"),
                   "InitContainer 'flux-installer' is reserved"},
                  &c);
    }
  }
}

}  // namespace tjr::validate
