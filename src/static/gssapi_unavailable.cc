// The GSSAPI functions libgit2.a refers to, for the static build only
// (-Dstatic=true): Debian ships MIT Kerberos without static libraries, and
// libgit2 calls GSSAPI only for HTTP "Negotiate" authentication
// (libgit2 v1.5.1 src/libgit2/transports/auth_negotiate.c), which tjrender,
// reading local repositories only, never reaches. Each reports
// GSS_S_UNAVAILABLE (RFC 2744 §3.9.1), so were it reached, libgit2 would
// report that no Kerberos mechanism is available and not offer Negotiate
// (auth_negotiate.c negotiate_init: gss_indicate_mechs fails). Signatures
// as RFC 2744 §3 declares them (opaque handles as void*).
#include <cstddef>
#include <cstdint>

namespace {

using OM_uint32 = std::uint32_t;
constexpr OM_uint32 kComplete = 0;
constexpr OM_uint32 kUnavailable = 16u << 16;  // GSS_S_UNAVAILABLE

struct BufferDesc {  // gss_buffer_desc
  std::size_t length;
  void* value;
};

OM_uint32 Unavailable(OM_uint32* minor) {
  if (minor != nullptr) *minor = 0;
  return kUnavailable;
}

OM_uint32 Released(OM_uint32* minor, void** handle) {
  if (minor != nullptr) *minor = 0;
  if (handle != nullptr) *handle = nullptr;
  return kComplete;
}

}  // namespace

extern "C" {

void* GSS_C_NT_HOSTBASED_SERVICE = nullptr;

OM_uint32 gss_indicate_mechs(OM_uint32* minor, void** mech_set) {
  if (mech_set != nullptr) *mech_set = nullptr;
  return Unavailable(minor);
}

OM_uint32 gss_import_name(OM_uint32* minor, void*, void*, void** name) {
  if (name != nullptr) *name = nullptr;
  return Unavailable(minor);
}

OM_uint32 gss_init_sec_context(OM_uint32* minor, void*, void**, void*, void*, OM_uint32, OM_uint32, void*,
                               void*, void** actual_mech, BufferDesc* output, OM_uint32* ret_flags,
                               OM_uint32* time_rec) {
  if (actual_mech != nullptr) *actual_mech = nullptr;
  if (output != nullptr) *output = {0, nullptr};
  if (ret_flags != nullptr) *ret_flags = 0;
  if (time_rec != nullptr) *time_rec = 0;
  return Unavailable(minor);
}

OM_uint32 gss_display_status(OM_uint32* minor, OM_uint32, int, void*, OM_uint32* message_context,
                             BufferDesc* status_string) {
  if (message_context != nullptr) *message_context = 0;
  if (status_string != nullptr) *status_string = {0, nullptr};
  return Unavailable(minor);
}

OM_uint32 gss_delete_sec_context(OM_uint32* minor, void** context, BufferDesc* output) {
  if (output != nullptr) *output = {0, nullptr};
  return Released(minor, context);
}

OM_uint32 gss_release_buffer(OM_uint32* minor, BufferDesc* buffer) {
  if (buffer != nullptr) *buffer = {0, nullptr};
  return Released(minor, nullptr);
}

OM_uint32 gss_release_name(OM_uint32* minor, void** name) { return Released(minor, name); }

OM_uint32 gss_release_oid_set(OM_uint32* minor, void** set) { return Released(minor, set); }

}  // extern "C"
