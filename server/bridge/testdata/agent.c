// A C program for MCP agents on a bridged lldb-dap session (the LLVM
// extension's debug type `lldb-dap`): an array of doubles with a NaN,
// output before the stop, a step that changes total.
#include <math.h>
#include <stdio.h>

int main(void) {
	double prices[4] = {12.5, 8, NAN, 20.25};
	printf("rows %d\n", 4);
	fflush(stdout);
	double total = 0; // BREAKPOINT
	total = prices[0] + prices[1] + prices[3];
	printf("total %g\n", total);
	fflush(stdout);
	return 0;
}
