"""torch's DataLoader with two worker processes (fork on Linux): each
worker runs __getitem__; ITEM BREAKPOINT is where a test stops it
(server/session/tree_test.go)."""
import torch
from torch.utils.data import DataLoader, Dataset


class Squares(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        item = torch.tensor([i * i])
        return item  # ITEM BREAKPOINT


if __name__ == "__main__":
    total = sum(int(b.sum()) for b in DataLoader(Squares(), batch_size=1, num_workers=2))
    print("total", total)
    print("parent done")
