// Command bcryptprimitives writes a bcryptprimitives.dll for Wine 8, whose
// own has none: Go 1.22+ programs call its ProcessPrng at start-up and die
// without it ("bcryptprimitives.dll not found"). The DLL is a minimal PE32+
// image holding only an export table, whose one export forwards ProcessPrng
// to advapi32's SystemFunction036 (RtlGenRandom: the same buffer and
// length in, TRUE on success; Go reads only the low byte of the answer).
// Wine 9 and Windows have the real one; the Wine harness (run.sh) writes
// this one only where it is missing.
//
// Usage: go run ./testdata/windows/bcryptprimitives OUT.dll
package main

import (
	"encoding/binary"
	"fmt"
	"os"
)

const (
	sectionRVA  = 0x1000 // where the export section is mapped
	fileAlign   = 0x200
	optHdrSize  = 240 // PE32+ optional header with 16 data directories
	peHdrOffset = 0x40
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: bcryptprimitives OUT.dll")
		os.Exit(2)
	}
	if err := os.WriteFile(os.Args[1], image(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// image is the whole DLL: headers, then the export section.
func image() []byte {
	sec, size := exports()
	le := binary.LittleEndian
	h := make([]byte, fileAlign)
	copy(h, "MZ")
	le.PutUint32(h[0x3c:], peHdrOffset)
	copy(h[peHdrOffset:], "PE\x00\x00")
	coff := h[peHdrOffset+4:]
	le.PutUint16(coff[0:], 0x8664)      // AMD64
	le.PutUint16(coff[2:], 1)           // one section
	le.PutUint16(coff[16:], optHdrSize) //
	le.PutUint16(coff[18:], 0x2022)     // executable, large-address aware, DLL
	opt := coff[20:]
	le.PutUint16(opt[0:], 0x20b)          // PE32+
	le.PutUint32(opt[8:], fileAlign)      // size of initialized data
	le.PutUint32(opt[20:], sectionRVA)    // base of code
	le.PutUint64(opt[24:], 0x180000000)   // image base
	le.PutUint32(opt[32:], sectionRVA)    // section alignment
	le.PutUint32(opt[36:], fileAlign)     // file alignment
	le.PutUint16(opt[40:], 6)             // OS version 6.0
	le.PutUint16(opt[48:], 6)             // subsystem version 6.0
	le.PutUint32(opt[56:], 2*sectionRVA)  // size of image
	le.PutUint32(opt[60:], fileAlign)     // size of headers
	le.PutUint16(opt[68:], 3)             // console subsystem
	le.PutUint16(opt[70:], 0x100)         // NX compatible
	le.PutUint64(opt[72:], 0x100000)      // stack reserve
	le.PutUint64(opt[80:], 0x1000)        // stack commit
	le.PutUint64(opt[88:], 0x100000)      // heap reserve
	le.PutUint64(opt[96:], 0x1000)        // heap commit
	le.PutUint32(opt[108:], 16)           // data directories
	le.PutUint32(opt[112:], sectionRVA)   // the export directory…
	le.PutUint32(opt[116:], uint32(size)) // …and its size
	s := opt[optHdrSize:]                 // the section header
	copy(s, ".rdata")
	le.PutUint32(s[8:], uint32(size)) // virtual size
	le.PutUint32(s[12:], sectionRVA)  // virtual address
	le.PutUint32(s[16:], fileAlign)   // raw size
	le.PutUint32(s[20:], fileAlign)   // raw offset
	le.PutUint32(s[36:], 0x40000040)  // initialized data, readable
	return append(h, sec...)
}

// exports is the export section (padded to the file alignment) and the
// size of its export data. An export whose address falls inside the
// export data is a forwarder: the address is that of "DLL.Name".
func exports() ([]byte, int) {
	const (
		dirSize   = 40
		eatOff    = dirSize      // export address table: 1 entry
		namesOff  = eatOff + 4   // name pointer table: 1 entry
		ordsOff   = namesOff + 4 // ordinal table: 1 entry
		stringOff = ordsOff + 2
	)
	dllName, fn, fwd := "bcryptprimitives.dll\x00", "ProcessPrng\x00", "advapi32.SystemFunction036\x00"
	nameAt := stringOff
	fnAt := nameAt + len(dllName)
	fwdAt := fnAt + len(fn)
	size := fwdAt + len(fwd)
	le := binary.LittleEndian
	b := make([]byte, fileAlign)
	le.PutUint32(b[12:], uint32(sectionRVA+nameAt)) // the DLL's name
	le.PutUint32(b[16:], 1)                         // ordinal base
	le.PutUint32(b[20:], 1)                         // functions
	le.PutUint32(b[24:], 1)                         // names
	le.PutUint32(b[28:], uint32(sectionRVA+eatOff))
	le.PutUint32(b[32:], uint32(sectionRVA+namesOff))
	le.PutUint32(b[36:], uint32(sectionRVA+ordsOff))
	le.PutUint32(b[eatOff:], uint32(sectionRVA+fwdAt))
	le.PutUint32(b[namesOff:], uint32(sectionRVA+fnAt))
	le.PutUint16(b[ordsOff:], 0)
	copy(b[nameAt:], dllName)
	copy(b[fnAt:], fn)
	copy(b[fwdAt:], fwd)
	return b, size
}
