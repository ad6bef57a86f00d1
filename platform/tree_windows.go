// tree_windows.go: a Tree is a job object with kill-on-close (see
// tree.go). The root starts suspended, joins the job, then runs, so even
// its first child is in the job; closing the job's last handle (Close, or
// dapscope's exit however it happens) kills every process in it.

package platform

import (
	"fmt"
	"os/exec"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// killedExitCode is the exit code of processes the tree's Kill ends
// (what taskkill /F leaves).
const killedExitCode = 1

// KilledExitCode is the exit code Kill leaves.
const KilledExitCode = killedExitCode

type treeSys struct {
	mu  sync.Mutex
	job windows.Handle // 0 once closed
}

func prepare(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	// Suspended until it is in the job; a process group of its own, out
	// of reach of the console's Ctrl+C.
	cmd.SysProcAttr.CreationFlags |= windows.CREATE_SUSPENDED | windows.CREATE_NEW_PROCESS_GROUP
}

// adopt puts the suspended root in a new kill-on-close job, then resumes it.
func (s *treeSys) adopt(cmd *exec.Cmd) error {
	pid := uint32(cmd.Process.Pid)
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return fmt.Errorf("creating a job object: %w", err)
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		_ = windows.CloseHandle(job)
		return fmt.Errorf("setting kill-on-close on the job: %w", err)
	}
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, pid)
	if err == nil {
		err = windows.AssignProcessToJobObject(job, h)
		_ = windows.CloseHandle(h)
	}
	if err != nil {
		_ = windows.CloseHandle(job)
		return fmt.Errorf("putting pid %d in its job: %w", pid, err)
	}
	s.job = job
	if err := resume(pid); err != nil {
		s.close(cmd)
		return fmt.Errorf("resuming pid %d: %w", pid, err)
	}
	return nil
}

// resume resumes the threads of a process started suspended (its one
// thread).
func resume(pid uint32) error {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return err
	}
	defer windows.CloseHandle(snap)
	te := windows.ThreadEntry32{Size: uint32(unsafe.Sizeof(windows.ThreadEntry32{}))}
	resumed := 0
	for err = windows.Thread32First(snap, &te); err == nil; err = windows.Thread32Next(snap, &te) {
		if te.OwnerProcessID != pid {
			continue
		}
		th, err := windows.OpenThread(windows.THREAD_SUSPEND_RESUME, false, te.ThreadID)
		if err != nil {
			return err
		}
		_, err = windows.ResumeThread(th)
		_ = windows.CloseHandle(th)
		if err != nil {
			return err
		}
		resumed++
	}
	if resumed == 0 {
		return fmt.Errorf("no thread of pid %d found", pid)
	}
	return nil
}

// terminate: Windows has no signal another process can be asked to end by.
func (s *treeSys) terminate(*exec.Cmd) error { return ErrNoPoliteStop }

func (s *treeSys) kill(*exec.Cmd) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.job == 0 {
		return nil
	}
	return windows.TerminateJobObject(s.job, killedExitCode)
}

// close closes the job: kill-on-close ends what is left in it.
func (s *treeSys) close(*exec.Cmd) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.job != 0 {
		_ = windows.TerminateJobObject(s.job, killedExitCode)
		_ = windows.CloseHandle(s.job)
		s.job = 0
	}
}

// signalOf: no signals end a process on Windows.
func signalOf(*exec.ExitError) (int, bool) { return 0, false }
