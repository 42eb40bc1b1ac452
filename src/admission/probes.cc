// validateLivenessProbe, validateReadinessProbe, validateStartupProbe,
// validateProbe, validateHandler and its actions, validateLifecycle
// (pkg/apis/core/validation/validation.go; see containers.cc for the revision read).
//
// PodLifecycleSleepActionAllowZero is GA from 1.34, so a sleep of 0 seconds
// is valid at every emulated release.
#include <string>

#include "admission/container_checks.h"
#include "admission/container_formats.h"
#include "doc/path.h"

namespace tjr::admission::containers {
namespace {

using validate::BadValue;

// ValidatePortNumOrName of an IntOrString port.
void ValidatePortNumOrName(const doc::Node* port, const Path& path, std::string_view rule, ObjectErrors* errors) {
  if (port != nullptr && port->is_string()) {
    for (std::string& message : formats::PortName(port->string_value())) {
      errors->Add(rule, Invalid(path, BadValue::String(port->string_value()), std::move(message)), port);
    }
    return;
  }
  // An absent port is IntOrString's zero value, the integer 0.
  const std::int64_t number = port != nullptr && port->is_int() ? port->int_value() : 0;
  for (std::string& message : formats::PortNum(number)) {
    errors->Add(rule, Invalid(path, BadValue::Int(number), std::move(message)), port);
  }
}

void ValidateHttpGet(const doc::Node& action, const Path& path, std::string_view rule, ObjectErrors* errors) {
  if (StringField(&action, "path").empty()) errors->Add(rule, Required(path.Child("path")), &action);
  ValidatePortNumOrName(doc::At(&action, "port"), path.Child("port"), rule, errors);
  const std::string scheme = StringField(&action, "scheme");
  if (scheme != "HTTP" && scheme != "HTTPS") {
    errors->Add(rule, NotSupported(path.Child("scheme"), BadValue::String(scheme), {"HTTP", "HTTPS"}),
                {action.Find("scheme"), &action});
  }
  for (const doc::Node& header : doc::Items(doc::At(&action, "httpHeaders"))) {
    const std::string name = StringField(&header, "name");
    for (std::string& message : formats::HttpHeaderName(name)) {
      errors->Add(rule, Invalid(path.Child("httpHeaders"), BadValue::String(name), std::move(message)), &header);
    }
  }
}

// validateSleepAction with AllowPodLifecycleSleepActionZeroValue.
void ValidateSleep(const doc::Node& action, const Path& path, std::string_view rule, const PodContext& pod) {
  if (pod.grace_period == nullptr || !pod.grace_period->is_int()) return;
  const std::int64_t grace = pod.grace_period->int_value();
  const std::int64_t seconds = IntField(&action, "seconds");
  if (seconds < 0 || seconds > grace) {
    pod.errors->Add(rule,
                    Invalid(path, BadValue::Int(seconds),
                            "must be non-negative and less than terminationGracePeriodSeconds (" +
                                std::to_string(grace) + ")"),
                    {action.Find("seconds"), &action});
  }
}

// validateHandler over the handler kinds a probe (exec, httpGet, tcpSocket,
// grpc) or a lifecycle hook (exec, httpGet, tcpSocket, sleep) has.
void ValidateHandler(const doc::Node& handler, bool lifecycle, const Path& path, std::string_view rule,
                     const PodContext& pod) {
  int handlers = 0;
  auto one = [&](std::string_view kind) -> const doc::Node* {
    const doc::Node* action = doc::At(&handler, kind);
    if (action == nullptr) return nullptr;
    if (handlers > 0) {
      pod.errors->Add(rule, Forbidden(path.Child(kind), "may not specify more than 1 handler type"), action);
      return nullptr;
    }
    ++handlers;
    return action;
  };
  if (const doc::Node* exec = one("exec")) {
    if (doc::Items(doc::At(exec, "command")).empty()) {
      pod.errors->Add(rule, Required(path.Child("exec").Child("command")), exec);
    }
  }
  if (const doc::Node* http = one("httpGet")) ValidateHttpGet(*http, path.Child("httpGet"), rule, pod.errors);
  if (const doc::Node* tcp = one("tcpSocket")) {
    ValidatePortNumOrName(doc::At(tcp, "port"), path.Child("tcpSocket").Child("port"), rule, pod.errors);
  }
  if (!lifecycle) {
    if (const doc::Node* grpc = one("grpc")) {
      const std::int64_t port = IntField(grpc, "port");
      for (std::string& message : formats::PortNum(port)) {
        pod.errors->Add(rule, Invalid(path.Child("grpc").Child("port"), BadValue::Int(port), std::move(message)),
                        {grpc->Find("port"), grpc});
      }
    }
  } else if (const doc::Node* sleep = one("sleep")) {
    ValidateSleep(*sleep, path.Child("sleep"), rule, pod);
  }
  if (handlers == 0) pod.errors->Add(rule, Required(path, "must specify a handler type"), &handler);
}

// validateProbe: the handler, then the non-negative counters.
void ValidateProbe(const doc::Node& probe, const Path& path, const PodContext& pod) {
  ValidateHandler(probe, false, path, "probes", pod);
  for (std::string_view field :
       {"initialDelaySeconds", "timeoutSeconds", "periodSeconds", "successThreshold", "failureThreshold"}) {
    const std::int64_t value = IntField(&probe, field);
    if (value < 0) {
      pod.errors->Add("probes", Invalid(path.Child(field), BadValue::Int(value), "must be greater than or equal to 0"),
                      {probe.Find(field), &probe});
    }
  }
  if (const doc::Node* grace = doc::At(&probe, "terminationGracePeriodSeconds"); grace != nullptr && grace->is_int() &&
                                                                                  grace->int_value() <= 0) {
    pod.errors->Add("probes",
                    Invalid(path.Child("terminationGracePeriodSeconds"), BadValue::Int(grace->int_value()),
                            "must be greater than 0"),
                    grace);
  }
}

// Liveness and startup probes must succeed once to count.
void RequireSuccessThresholdOne(const doc::Node& probe, const Path& path, ObjectErrors* errors) {
  const std::int64_t threshold = IntField(&probe, "successThreshold");
  if (threshold != 1) {
    errors->Add("probes", Invalid(path.Child("successThreshold"), BadValue::Int(threshold), "must be 1"),
                {probe.Find("successThreshold"), &probe});
  }
}

}  // namespace

void ValidateLivenessProbe(const doc::Node* probe, const Path& path, const PodContext& pod) {
  if (probe == nullptr) return;
  ValidateProbe(*probe, path, pod);
  RequireSuccessThresholdOne(*probe, path, pod.errors);
}

void ValidateReadinessProbe(const doc::Node* probe, const Path& path, const PodContext& pod) {
  if (probe == nullptr) return;
  ValidateProbe(*probe, path, pod);
  if (const doc::Node* grace = doc::At(probe, "terminationGracePeriodSeconds")) {
    pod.errors->Add("probes",
                    Invalid(path.Child("terminationGracePeriodSeconds"),
                            grace->is_int() ? BadValue::Int(grace->int_value()) : BadValue::Plain(grace->source_text()),
                            "must not be set for readinessProbes"),
                    grace);
  }
}

void ValidateStartupProbe(const doc::Node* probe, const Path& path, const PodContext& pod) {
  if (probe == nullptr) return;
  ValidateProbe(*probe, path, pod);
  RequireSuccessThresholdOne(*probe, path, pod.errors);
}

void ValidateLifecycle(const doc::Node& lifecycle, const Path& path, const PodContext& pod) {
  if (const doc::Node* hook = doc::At(&lifecycle, "postStart")) {
    ValidateHandler(*hook, true, path.Child("postStart"), "lifecycle", pod);
  }
  if (const doc::Node* hook = doc::At(&lifecycle, "preStop")) {
    ValidateHandler(*hook, true, path.Child("preStop"), "lifecycle", pod);
  }
}

}  // namespace tjr::admission::containers
