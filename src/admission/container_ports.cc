// validateContainerPorts and AccumulateUniqueHostPorts
// (pkg/apis/core/validation/validation.go; see containers.cc for the revision read).
#include <set>
#include <string>

#include "admission/container_checks.h"
#include "admission/container_formats.h"
#include "doc/path.h"

namespace tjr::admission::containers {

using validate::BadValue;

void ValidateContainerPorts(const doc::Node* ports, const Path& path, ObjectErrors* errors) {
  std::set<std::string> names;
  const std::vector<doc::Node>& items = doc::Items(ports);
  for (std::size_t i = 0; i < items.size(); ++i) {
    const doc::Node& port = items[i];
    const Path item = path.Index(i);
    const std::string name = StringField(&port, "name");
    if (!name.empty()) {
      std::vector<std::string> messages = formats::PortName(name);
      if (!messages.empty()) {
        for (std::string& message : messages) {
          errors->Add("ports", Invalid(item.Child("name"), BadValue::String(name), std::move(message)),
                      {port.Find("name"), &port});
        }
      } else if (!names.insert(name).second) {
        errors->Add("ports", Duplicate(item.Child("name"), BadValue::String(name)), {port.Find("name"), &port});
      }
    }
    const std::int64_t container_port = IntField(&port, "containerPort");
    if (container_port == 0) {
      errors->Add("ports", Required(item.Child("containerPort")), {port.Find("containerPort"), &port});
    } else {
      for (std::string& message : formats::PortNum(container_port)) {
        errors->Add("ports", Invalid(item.Child("containerPort"), BadValue::Int(container_port), std::move(message)),
                    {port.Find("containerPort"), &port});
      }
    }
    const std::int64_t host_port = IntField(&port, "hostPort");
    if (host_port != 0) {
      for (std::string& message : formats::PortNum(host_port)) {
        errors->Add("ports", Invalid(item.Child("hostPort"), BadValue::Int(host_port), std::move(message)),
                    {port.Find("hostPort"), &port});
      }
    }
    const std::string protocol = StringField(&port, "protocol");
    if (protocol.empty()) {
      errors->Add("ports", Required(item.Child("protocol")), {port.Find("protocol"), &port});
    } else if (protocol != "TCP" && protocol != "UDP" && protocol != "SCTP") {
      errors->Add("ports", NotSupported(item.Child("protocol"), BadValue::String(protocol), {"SCTP", "TCP", "UDP"}),
                  {port.Find("protocol"), &port});
    }
  }
}

void CheckHostPortConflicts(const std::vector<const doc::Node*>& containers, const Path& path, ObjectErrors* errors) {
  std::set<std::string> seen;
  for (std::size_t c = 0; c < containers.size(); ++c) {
    const Path ports_path = path.Index(c).Child("ports");
    const std::vector<doc::Node>& ports = doc::Items(doc::At(containers[c], "ports"));
    for (std::size_t p = 0; p < ports.size(); ++p) {
      const std::int64_t host_port = IntField(&ports[p], "hostPort");
      if (host_port == 0) continue;
      // fmt.Sprintf("%s/%s/%d", protocol, hostIP, port).
      const std::string key = StringField(&ports[p], "protocol") + "/" + StringField(&ports[p], "hostIP") + "/" +
                              std::to_string(host_port);
      if (!seen.insert(key).second) {
        errors->Add("ports", Duplicate(ports_path.Index(p).Child("hostPort"), BadValue::String(key)),
                    {ports[p].Find("hostPort"), &ports[p]});
      }
    }
  }
}

}  // namespace tjr::admission::containers
