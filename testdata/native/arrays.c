// arrays.c: a C program for dapscope's lldb tests: an array of doubles
// with NaNs, structs, strings, a pointer with a known length, and a
// getter that counts its calls (the probe must never run it).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct point {
	int id;
	double x, y;
	const char *label;
};

int getter_calls = 0;
static int counter = 41;

double point_norm(const struct point *p) {
	getter_calls++;
	return sqrt(p->x * p->x + p->y * p->y);
}

// ticks counts the rounds of the wait loop (attach tests).
int ticks = 0;

void tick(void) {
	ticks++; // tick line
}

int main(int argc, char **argv) {
	if (argc > 1 && strcmp(argv[1], "crash") == 0) {
		volatile int *nowhere = NULL;
		*nowhere = 1; // crash line
	}
	if (argc > 1 && strcmp(argv[1], "wait") == 0) {
		// Wait for a debugger: run until killed.
		for (;;) {
			tick();
			usleep(1000);
		}
	}
	double values[100];
	for (int i = 0; i < 100; i++)
		values[i] = i * 0.5;
	values[10] = NAN;
	values[20] = NAN;
	int n = 1000;
	int *ints = malloc(sizeof(int) * n);
	for (int i = 0; i < n; i++)
		ints[i] = i % 7;
	struct point pts[3] = {{1, 3, 4, "a"}, {2, 6, 8, "bb"}, {3, 0, 0, "ccc"}};
	struct point origin = pts[2];
	const char *greeting = "hello, lldb";
	char name[32];
	strcpy(name, "dapscope");
	double total = 0;
	for (int i = 0; i < 3; i++)
		total += point_norm(&pts[i]);
	counter++;
	printf("%s %s %f %d %d\n", greeting, name, total, ints[5], origin.id); // break here
	free(ints);
	return 0;
}
