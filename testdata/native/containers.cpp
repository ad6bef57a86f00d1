// containers.cpp: a C++ program for dapscope's lldb tests: vector, array,
// map, unordered_map, string, optional, and a class whose getter and
// operator<< count their calls (the probe must never run them).
#include <array>
#include <cmath>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

int calls = 0;

struct Account {
	std::string owner;
	double balance;
	int id;
	double get_balance() const {
		calls++;
		return balance;
	}
};

std::ostream &operator<<(std::ostream &o, const Account &a) {
	calls++;
	return o << a.owner;
}

int main() {
	std::vector<double> prices;
	for (int i = 0; i < 1000; i++)
		prices.push_back(100.0 + (i % 50));
	prices[3] = NAN;
	std::array<int, 5> small = {5, 4, 3, 2, 1};
	std::map<std::string, int> counts = {{"apple", 3}, {"pear", 5}, {"plum", 7}};
	std::unordered_map<int, double> rates = {{1, 0.5}, {2, 0.25}};
	std::string title = "quarterly report";
	std::optional<int> maybe = 42;
	std::optional<int> nothing;
	Account acct{"ada", 12.5, 7};
	std::vector<Account> accounts = {acct, {"bob", 3.0, 8}};
	double total = 0;
	for (auto &a : accounts)
		total += a.get_balance();
	std::cout << acct << " " << total << " " << small[0] << counts.size() << rates.size() << title << *maybe << nothing.has_value() << std::endl; // break here
	return 0;
}
