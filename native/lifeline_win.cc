// Windows lifeline: one Job Object per gate, created with
// JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE. The gate is assigned to it right after spawn, so
// every process it starts from then on is in the job too. Release (the call ended)
// terminates the job, which reaches descendants that outlived an exited gate (taskkill
// /T cannot: it walks parent pids from a live gate). The job handles are not
// inheritable and only the server holds them, so when the server dies, however it dies,
// the system closes them and kills every process still in a job. See lifeline.h.
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>

#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "capture.h"
#include "lifeline.h"

namespace lifeline {
namespace {

std::mutex mutex;
std::map<int64_t, HANDLE> jobs;

// Closes a handle when it goes out of scope (every early return included).
struct OwnedHandle {
  HANDLE handle;
  ~OwnedHandle() {
    if (handle != nullptr) CloseHandle(handle);
  }
};

[[noreturn]] void Throw(const char* call, const std::string& what) {
  DWORD error = GetLastError();
  throw capture::OsError(error == ERROR_ACCESS_DENIED ? "EACCES" : "EJOBOBJECT",
                         static_cast<int>(error), call,
                         "gate lifeline: " + what + ": " + call + " failed with Windows error " +
                             std::to_string(error));
}

}  // namespace

void Watch(int64_t pid) {
  std::lock_guard<std::mutex> lock(mutex);
  if (jobs.count(pid) != 0) return;
  OwnedHandle job{CreateJobObjectW(nullptr, nullptr)};
  if (job.handle == nullptr) Throw("CreateJobObjectW", "cannot create the gate's job");
  JOBOBJECT_EXTENDED_LIMIT_INFORMATION limits;
  ZeroMemory(&limits, sizeof limits);
  limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
  if (!SetInformationJobObject(job.handle, JobObjectExtendedLimitInformation, &limits,
                               sizeof limits)) {
    Throw("SetInformationJobObject", "cannot make the gate's job kill on close");
  }
  OwnedHandle process{
      OpenProcess(PROCESS_SET_QUOTA | PROCESS_TERMINATE, FALSE, static_cast<DWORD>(pid))};
  if (process.handle == nullptr) Throw("OpenProcess", "cannot open the gate's process");
  if (!AssignProcessToJobObject(job.handle, process.handle)) {
    Throw("AssignProcessToJobObject", "cannot put the gate in its job");
  }
  jobs[pid] = job.handle;
  job.handle = nullptr;  // kept open until Release (or until the server dies)
}

void Release(int64_t pid) {
  std::lock_guard<std::mutex> lock(mutex);
  auto found = jobs.find(pid);
  if (found == jobs.end()) return;
  TerminateJobObject(found->second, 1);
  CloseHandle(found->second);
  jobs.erase(found);
}

bool KillTreeExceptLeader(int64_t pid) {
  std::lock_guard<std::mutex> lock(mutex);
  auto found = jobs.find(pid);
  if (found == jobs.end()) return false;
  // Pids per query; a bigger job is listed in part, and the rest after those have gone.
  constexpr DWORD kListed = 1024;
  std::vector<unsigned char> buffer(sizeof(JOBOBJECT_BASIC_PROCESS_ID_LIST) +
                                    kListed * sizeof(ULONG_PTR));
  auto* list = reinterpret_cast<JOBOBJECT_BASIC_PROCESS_ID_LIST*>(buffer.data());
  std::set<ULONG_PTR> killed;
  for (int pass = 0; pass < 64; ++pass) {
    if (!QueryInformationJobObject(found->second, JobObjectBasicProcessIdList, list,
                                   static_cast<DWORD>(buffer.size()), nullptr) &&
        GetLastError() != ERROR_MORE_DATA) {
      return false;
    }
    bool killed_new = false;
    for (DWORD index = 0; index < list->NumberOfProcessIdsInList; ++index) {
      ULONG_PTR id = list->ProcessIdList[index];
      // Terminated in an earlier pass and still leaving the job: nothing more to do.
      if (id == static_cast<ULONG_PTR>(pid) || !killed.insert(id).second) continue;
      killed_new = true;
      OwnedHandle process{OpenProcess(PROCESS_TERMINATE, FALSE, static_cast<DWORD>(id))};
      if (process.handle != nullptr) TerminateProcess(process.handle, 1);
    }
    if (!killed_new && list->NumberOfProcessIdsInList >= list->NumberOfAssignedProcesses) {
      return true;
    }
  }
  return false;
}

const char* Mechanism() { return "job object"; }

int64_t WatchdogPid() { return 0; }

}  // namespace lifeline
