// The N-API face of the capture guard: argument checks as a last line of defence
// (the TS wrapper validates first), backend calls, and errors turned into JS
// Errors with a stable `code`. The only file that includes napi.h.
#include <napi.h>

#include <atomic>
#include <string>

#include "capture.h"
#include "lifeline.h"

namespace {

// The env (main thread or a worker) whose capture is active. Guard state is
// process-global, so only that env may end it, and only its teardown restores.
std::atomic<napi_env> owner_env{nullptr};

Napi::Error CodedError(Napi::Env env, const std::string& code, const std::string& message) {
  Napi::Error error = Napi::Error::New(env, message);
  error.Set("code", Napi::String::New(env, code));
  return error;
}

// Runs `body`, turning backend exceptions into JS errors.
template <typename Body>
Napi::Value Guarded(const Napi::CallbackInfo& info, Body body) {
  Napi::Env env = info.Env();
  try {
    return body(env);
  } catch (const capture::OsError& failure) {
    Napi::Error error = CodedError(env, failure.code, failure.what());
    error.Set("errno", Napi::Number::New(env, failure.errnum));
    error.Set("syscall", Napi::String::New(env, failure.syscall));
    error.ThrowAsJavaScriptException();
  } catch (const capture::StateError& failure) {
    CodedError(env, failure.code, failure.what()).ThrowAsJavaScriptException();
  } catch (const std::exception& failure) {
    CodedError(env, "ECAPTURE_NATIVE", failure.what()).ThrowAsJavaScriptException();
  }
  return env.Undefined();
}

capture::CaptureTarget TargetFrom(const Napi::CallbackInfo& info, const char* operation) {
  if (info.Length() < 1 || !info[0].IsObject()) {
    throw Napi::TypeError::New(info.Env(), std::string(operation) +
                                               ": expected an options object {fd, path}");
  }
  Napi::Object options = info[0].As<Napi::Object>();
  Napi::Value fd = options.Get("fd");
  Napi::Value path = options.Get("path");
  if (!fd.IsNumber() || !path.IsString()) {
    throw Napi::TypeError::New(info.Env(), std::string(operation) +
                                               ": options.fd must be a number and "
                                               "options.path a string");
  }
  return capture::CaptureTarget{fd.As<Napi::Number>().Int32Value(),
                                path.As<Napi::String>().Utf8Value()};
}

Napi::Value GuardStdio(const Napi::CallbackInfo& info) {
  return Guarded(info, [](Napi::Env env) -> Napi::Value {
    capture::ProtocolFds fds = capture::GuardStdio();
    Napi::Object result = Napi::Object::New(env);
    result.Set("inputFd", Napi::Number::New(env, fds.input_fd));
    result.Set("outputFd", Napi::Number::New(env, fds.output_fd));
    return result;
  });
}

Napi::Value Begin(const Napi::CallbackInfo& info) {
  capture::CaptureTarget target = TargetFrom(info, "begin");
  return Guarded(info, [&target](Napi::Env env) -> Napi::Value {
    int64_t size = capture::Begin(target);
    owner_env.store(env);
    return Napi::Number::New(env, static_cast<double>(size));
  });
}

Napi::Value End(const Napi::CallbackInfo& info) {
  return Guarded(info, [](Napi::Env env) -> Napi::Value {
    napi_env owner = owner_env.load();
    if (owner != nullptr && owner != static_cast<napi_env>(env) &&
        capture::State() == capture::GuardState::kActive) {
      throw capture::StateError("ECAPTURE_STATE",
                                "end: the active capture belongs to another thread");
    }
    int64_t size = -1;
    bool ended = capture::End(&size);
    owner_env.store(nullptr);
    if (!ended) return env.Null();
    return Napi::Number::New(env, static_cast<double>(size));
  });
}

Napi::Value Size(const Napi::CallbackInfo& info) {
  capture::CaptureTarget target = TargetFrom(info, "size");
  return Guarded(info, [&target](Napi::Env env) -> Napi::Value {
    return Napi::Number::New(env, static_cast<double>(capture::CaptureFileSize(target)));
  });
}

Napi::Value State(const Napi::CallbackInfo& info) {
  return Napi::String::New(info.Env(), capture::GuardStateName(capture::State()));
}

Napi::Value WriteStderrForTest(const Napi::CallbackInfo& info) {
  if (info.Length() < 1 || !info[0].IsString()) {
    throw Napi::TypeError::New(info.Env(), "writeStderrForTest: expected a string");
  }
  std::string text = info[0].As<Napi::String>().Utf8Value();
  return Guarded(info, [&text](Napi::Env env) -> Napi::Value {
    capture::WriteStandardErrorForTest(text);
    return env.Undefined();
  });
}

Napi::Value BareRedirectPairForTest(const Napi::CallbackInfo& info) {
  capture::CaptureTarget target = TargetFrom(info, "bareRedirectPairForTest");
  return Guarded(info, [&target](Napi::Env env) -> Napi::Value {
    capture::BareRedirectPairForTest(target);
    return env.Undefined();
  });
}

int64_t PidFrom(const Napi::CallbackInfo& info, const char* operation) {
  if (info.Length() < 1 || !info[0].IsNumber()) {
    throw Napi::TypeError::New(info.Env(), std::string(operation) + ": expected a pid (number)");
  }
  int64_t pid = info[0].As<Napi::Number>().Int64Value();
  if (pid <= 1) {
    throw Napi::RangeError::New(info.Env(), std::string(operation) + ": pid must be above 1");
  }
  return pid;
}

Napi::Value WatchGateTree(const Napi::CallbackInfo& info) {
  int64_t pid = PidFrom(info, "watchGateTree");
  return Guarded(info, [pid](Napi::Env env) -> Napi::Value {
    lifeline::Watch(pid);
    return env.Undefined();
  });
}

Napi::Value ReleaseGateTree(const Napi::CallbackInfo& info) {
  int64_t pid = PidFrom(info, "releaseGateTree");
  lifeline::Release(pid);
  return info.Env().Undefined();
}

Napi::Value KillGateTreeExceptLeader(const Napi::CallbackInfo& info) {
  int64_t pid = PidFrom(info, "killGateTreeExceptLeader");
  return Napi::Boolean::New(info.Env(), lifeline::KillTreeExceptLeader(pid));
}

Napi::Value WatchdogPid(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(lifeline::WatchdogPid()));
}

// Env teardown (process exit or a worker that loaded the addon ending): restore
// only when this env owns the active capture, so a worker's exit never ends the
// main thread's capture.
void RestoreIfOwner(napi_env env) {
  napi_env expected = env;
  if (owner_env.compare_exchange_strong(expected, nullptr)) {
    capture::ScopedRestore restore;
  }
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  env.AddCleanupHook(RestoreIfOwner, static_cast<napi_env>(env));
  exports.Set("backend", Napi::String::New(env, capture::BackendName()));
  exports.Set("guardStdio", Napi::Function::New(env, GuardStdio, "guardStdio"));
  exports.Set("begin", Napi::Function::New(env, Begin, "begin"));
  exports.Set("end", Napi::Function::New(env, End, "end"));
  exports.Set("state", Napi::Function::New(env, State, "state"));
  exports.Set("size", Napi::Function::New(env, Size, "size"));
  exports.Set("lifelineMechanism", Napi::String::New(env, lifeline::Mechanism()));
  exports.Set("watchGateTree", Napi::Function::New(env, WatchGateTree, "watchGateTree"));
  exports.Set("releaseGateTree", Napi::Function::New(env, ReleaseGateTree, "releaseGateTree"));
  exports.Set("killGateTreeExceptLeader",
              Napi::Function::New(env, KillGateTreeExceptLeader, "killGateTreeExceptLeader"));
  exports.Set("watchdogPid", Napi::Function::New(env, WatchdogPid, "watchdogPid"));
  exports.Set("writeStderrForTest",
              Napi::Function::New(env, WriteStderrForTest, "writeStderrForTest"));
  exports.Set("bareRedirectPairForTest",
              Napi::Function::New(env, BareRedirectPairForTest, "bareRedirectPairForTest"));
  return exports;
}

}  // namespace

NODE_API_MODULE(capture, Init)
