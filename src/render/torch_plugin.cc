// Torch and TorchTune (plugins/torch/torch.go, torchtune.go at v2.1.0;
// spec §1.5.2), with the v2.2.0/v2.3.0 changes (runtimepatches spec §5.14):
// numProcPerNode is an int of the TrainJob only (default "auto"), QLoRA/DoRA
// flags need a true value (v2.3.0), and envInjection targets (v2.3.0).
#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "render/plugins.h"
#include "doc/path.h"
#include "render/tree.h"
#include "render/upsert.h"

namespace tjr::render {
namespace {

constexpr int kTrainerPort = 29500;

// intstr.IntOrString as the plugin sees it.
struct ProcPerNode {
  bool is_int = false;
  std::int64_t int_value = 0;
  std::string string_value;
  std::string String() const { return is_int ? std::to_string(int_value) : string_value; }
};

ProcPerNode FromNode(const doc::Node& value) {
  ProcPerNode out;
  if (value.is_int()) {
    out.is_int = true;
    out.int_value = value.int_value();
  } else if (value.is_string()) {
    out.string_value = value.string_value();
  }
  return out;
}

// getNumCPUPerNode: requests.cpu when present and non-zero, else limits.cpu.
std::int64_t CpuCount(const NodeResources& resources) {
  auto request = resources.requests.find("cpu");
  if (request == resources.requests.end() || request->second.is_zero()) {
    auto limit = resources.limits.find("cpu");
    return limit != resources.limits.end() ? limit->second.Value() : 0;
  }
  return request->second.Value();
}

bool ArgsContain(const doc::Node* args, std::string_view needle) {
  if (args == nullptr) return false;
  for (const doc::Node& arg : args->items()) {
    if (arg.is_string() && arg.string_value().find(needle) != std::string::npos) return true;
  }
  return false;
}

// isBoolArgEnabled (v2.3.0): a "key=value" arg whose key contains `item`
// and whose value is "true" in any case, spaces trimmed.
bool BoolArgEnabled(const doc::Node* args, std::string_view item) {
  if (args == nullptr) return false;
  for (const doc::Node& arg : args->items()) {
    if (!arg.is_string()) continue;
    const std::string& text = arg.string_value();
    const std::size_t eq = text.find('=');
    if (eq == std::string::npos) continue;
    if (text.substr(0, eq).find(item) == std::string::npos) continue;
    std::string value = text.substr(eq + 1);
    const auto space = [](unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; };
    while (!value.empty() && space(value.back())) value.pop_back();
    std::size_t start = 0;
    while (start < value.size() && space(value[start])) ++start;
    value = value.substr(start);
    std::transform(value.begin(), value.end(), value.begin(), [](unsigned char c) { return std::tolower(c); });
    if (value == "true") return true;
  }
  return false;
}

bool UsesQLoRA(const doc::Node* args, trainer::TrainerVersion version) {
  if (trainer::ReleaseOf(version).qlora_excludes_dora) {
    return !BoolArgEnabled(args, "model.use_dora") && BoolArgEnabled(args, "model.quantize_base");
  }
  bool quantize = false;
  if (args == nullptr) return false;
  for (const doc::Node& arg : args->items()) {
    if (!arg.is_string()) continue;
    if (arg.string_value().find("model.use_dora") != std::string::npos) return false;
    if (arg.string_value().find("model.quantize_base") != std::string::npos) quantize = true;
  }
  return quantize;
}

// getModelFromRuntimeRef: "torchtune-llama3.2-1b" -> "llama3_2/1B".
std::string ModelFromRuntimeName(const std::string& name) {
  std::vector<std::string> fields;
  std::size_t start = 0;
  while (true) {
    std::size_t dash = name.find('-', start);
    fields.push_back(name.substr(start, dash == std::string::npos ? std::string::npos : dash - start));
    if (dash == std::string::npos) break;
    start = dash + 1;
  }
  if (fields.size() != 3) return "";
  std::string family = fields[1];
  std::replace(family.begin(), family.end(), '.', '_');
  std::string size = fields[2];
  std::transform(size.begin(), size.end(), size.begin(), [](unsigned char c) { return std::toupper(c); });
  return family + "/" + size;
}

std::pair<std::string, std::string> RecipeAndConfig(std::int64_t num_nodes, const ProcPerNode& npp,
                                                    std::int64_t gpu, const doc::Node& trainjob,
                                                    trainer::TrainerVersion version) {
  const doc::Node* args = doc::FindPath(trainjob, {"spec", "trainer", "args"});
  std::string recipe = "full_finetune_distributed";
  std::string suffix = "_full";
  if (num_nodes == 1 && ((npp.is_int && npp.int_value == 1) || gpu == 1)) {
    if (UsesQLoRA(args, version)) {
      recipe = "lora_finetune_single_device";
      suffix = "_qlora_single_device";
    } else if (ArgsContain(args, "model.lora_attn_modules")) {
      recipe = "lora_finetune_single_device";
      suffix = "_lora_single_device";
    } else {
      recipe = "full_finetune_single_device";
      suffix = "_full_single_device";
    }
  } else if (num_nodes == 1 && UsesQLoRA(args, version)) {
    recipe = "lora_finetune_distributed";
    suffix = "_qlora";
  } else if (num_nodes == 1 && ArgsContain(args, "model.lora_attn_modules")) {
    recipe = "lora_finetune_distributed";
    suffix = "_lora";
  } else if (num_nodes > 1) {
    suffix = "_full_multinode";
  }
  return {recipe, ModelFromRuntimeName(doc::StringAtPath(trainjob, {"spec", "runtimeRef", "name"})) + suffix};
}

// extractOverridesFromRuntime: the runtime trainer `node` command items
// whose key (before the first '=') is one of the immutable configs.
std::vector<std::string> ImmutableOverrides(const Info& info) {
  std::vector<std::string> out;
  const doc::Node* jobs = info.jobset_spec.Find("replicatedJobs");
  if (jobs == nullptr) return out;
  for (const doc::Node& job : jobs->items()) {
    if (doc::StringAtPath(job, {"template", "metadata", "labels", kAncestorLabel}) != kAncestorTrainer) continue;
    const doc::Node* containers = doc::FindPath(job, {"template", "spec", "template", "spec", "containers"});
    if (containers == nullptr) continue;
    for (const doc::Node& c : containers->items()) {
      if (doc::StringAtPath(c, {"name"}) != kNode) continue;
      const doc::Node* command = c.Find("command");
      if (command == nullptr) continue;
      for (const doc::Node& item : command->items()) {
        if (!item.is_string()) continue;
        const std::string& s = item.string_value();
        const std::string key = s.substr(0, s.find('='));
        if (key == "output_dir" || key == "tokenizer.path" || key == "checkpointer.checkpoint_dir" ||
            key == "tokenizer.merges_file") {
          out.push_back(s);
        }
      }
    }
  }
  return out;
}

bool IsTorchTuneCommand(const doc::Node* command) {
  if (command == nullptr || command->size() != 2) return false;
  const doc::Node& a = (*command)[0];
  const doc::Node& b = (*command)[1];
  return a.is_string() && b.is_string() && a.string_value() == "tune" && b.string_value() == "run";
}


// The trainer `node` container: PET_* envs, then master envs or the
// TorchTune command rewrite, then the rendezvous port.
Status TrainerContainer(Info* info, doc::Node* trainjob, PodSetContainer* container, const doc::Node& pet,
                        const doc::Node& master, std::int64_t num_nodes, const ProcPerNode& npp, std::int64_t gpu) {
  const std::string name = doc::StringAtPath(*trainjob, {"metadata", "name"});
  UpsertEnvVars(&container->env, pet);
  const doc::Node* command = doc::FindPath(*trainjob, {"spec", "trainer", "command"});
  if (!IsTorchTuneCommand(command)) {
    UpsertEnvVars(&container->env, master);
  } else {
    doc::Node new_command = *command;
    if (num_nodes > 1 || (npp.is_int && npp.int_value > 1) || (!npp.is_int && gpu > 1)) {
      new_command.push_back(doc::Node::String("--rdzv_endpoint=" + name + "-node-0-0." + name + ":" +
                                              std::to_string(kTrainerPort)));
    }
    auto [recipe, config] = RecipeAndConfig(num_nodes, npp, gpu, *trainjob, info->version);
    new_command.push_back(doc::Node::String(recipe));
    new_command.push_back(doc::Node::String("--config"));
    new_command.push_back(doc::Node::String(config));
    for (std::string& item : ImmutableOverrides(*info)) new_command.push_back(doc::Node::String(std::move(item)));
    ChildPath(trainjob, {"spec", "trainer"}).Set("command", std::move(new_command));
  }

  doc::Node port = doc::Node::Mapping();
  port.Set("containerPort", doc::Node::Int(kTrainerPort));
  doc::Node ports = doc::Node::Sequence();
  ports.push_back(std::move(port));
  UpsertPorts(&container->ports, ports);
  return Ok();
}

// FindContainerByPodSetName: regular containers before init containers.
PodSetContainer* FindByPodSetName(Info* info, std::string_view job, std::string_view container) {
  PodSet* ps = info->FindPodSetByName(job);
  if (ps == nullptr) return nullptr;
  for (std::vector<PodSetContainer>* list : {&ps->containers, &ps->init_containers}) {
    for (PodSetContainer& c : *list) {
      if (c.name == container) return &c;
    }
  }
  return nullptr;
}

// torch.envInjection (v2.3.0, #3516): PET_* and master envs into each named
// container, whether or not the TrainJob has a trainer section.
Status InjectEnvTargets(Info* info, const doc::Node& torch, const doc::Node& pet, const doc::Node& master) {
  const doc::Node* targets = doc::FindPath(torch, {"envInjection", "targets"});
  if (targets == nullptr || !targets->is_sequence()) return Ok();
  for (const doc::Node& target : targets->items()) {
    const std::string job = doc::StringAtPath(target, {"jobName"});
    const doc::Node* names = target.Find("containerNames");
    if (names == nullptr || !names->is_sequence()) continue;
    for (const doc::Node& name : names->items()) {
      const std::string container_name = name.is_string() ? name.string_value() : "";
      PodSetContainer* container = FindByPodSetName(info, job, container_name);
      if (container == nullptr) {
        return MakeError(name.location(), "spec.mlPolicy.torch.envInjection.targets",
                         "envInjection target podSet \"" + job + "\" container \"" + container_name +
                             "\" not found in runtime template");
      }
      UpsertEnvVars(&container->env, pet);
      UpsertEnvVars(&container->env, master);
    }
  }
  return Ok();
}

}  // namespace

Status EnforceTorch(Info* info, doc::Node* trainjob) {
  if (info->ml_policy.is_null()) return Ok();
  const doc::Node* torch = info->ml_policy.Find("torch");
  if (torch == nullptr || torch->is_null()) return Ok();

  const doc::Node* trainer = doc::FindPath(*trainjob, {"spec", "trainer"});
  if (trainer != nullptr && trainer->is_null()) trainer = nullptr;
  PodSet* trainer_ps = info->FindPodSetByAncestor(kAncestorTrainer);
  if (trainer_ps != nullptr && trainer != nullptr) {
    if (const doc::Node* n = trainer->Find("numNodes"); n != nullptr && n->is_int()) {
      trainer_ps->count = static_cast<std::int32_t>(n->int_value());
    }
  }

  ProcPerNode npp;
  npp.string_value = "auto";
  // v2.2.0 removed the runtime's torch.numProcPerNode and the string forms.
  if (trainer::ReleaseOf(info->version).torch_runtime_num_proc_per_node) {
    if (const doc::Node* v = torch->Find("numProcPerNode"); v != nullptr && !v->is_null()) npp = FromNode(*v);
  }
  if (trainer != nullptr) {
    if (const doc::Node* v = trainer->Find("numProcPerNode"); v != nullptr && !v->is_null()) npp = FromNode(*v);
  }

  Result<NodeResources> resources = TrainerResources(*info, *trainjob);
  if (!resources.ok()) return resources.take_error();
  const std::int64_t gpu = GpuCount(*resources);
  if (npp.String() == "cpu" || (npp.String() == "auto" && gpu == 0)) {
    npp = ProcPerNode{true, std::max<std::int64_t>(1, CpuCount(*resources)), {}};
  }

  const std::int64_t num_nodes = trainer_ps != nullptr ? trainer_ps->count : 1;
  const std::string name = doc::StringAtPath(*trainjob, {"metadata", "name"});
  PodSetContainer* container = trainer != nullptr ? info->FindContainer(kAncestorTrainer, kNode) : nullptr;
  if (container != nullptr) UpsertEnvVars(&container->env, ConvertEnvVars(trainer->Find("env")));

  doc::Node pet = doc::Node::Sequence();
  pet.push_back(EnvValue("PET_NNODES", std::to_string(num_nodes)));
  pet.push_back(EnvValue("PET_NPROC_PER_NODE", npp.String()));
  doc::Node rank = doc::Node::Mapping();
  rank.Set("name", doc::Node::String("PET_NODE_RANK"));
  doc::Node field_ref = doc::Node::Mapping();
  field_ref.Set("fieldPath", doc::Node::String("metadata.annotations['batch.kubernetes.io/job-completion-index']"));
  ChildPath(&rank, {"valueFrom"}).Set("fieldRef", std::move(field_ref));
  pet.push_back(std::move(rank));
  doc::Node master = doc::Node::Sequence();
  master.push_back(EnvValue("PET_MASTER_ADDR", name + "-node-0-0." + name));
  master.push_back(EnvValue("PET_MASTER_PORT", std::to_string(kTrainerPort)));
  if (container != nullptr) {
    if (Status s = TrainerContainer(info, trainjob, container, pet, master, num_nodes, npp, gpu); !s.ok()) return s;
  }
  if (trainer::ReleaseOf(info->version).torch_env_injection) return InjectEnvTargets(info, *torch, pet, master);
  return Ok();
}

}  // namespace tjr::render
