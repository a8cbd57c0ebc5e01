"""DigitsDataset scales the pixels by the largest pixel of the data it is given, X.max(): right
for load_digits' data (whose largest pixel is 16), wrong for any set of digits without a 16."""
NOTEBOOK = "08_train_digits"
CELLS = {
    "task8_1_digits_dataset": '''
class DigitsDataset(ndl.data.Dataset):
    def __init__(self, X, y, transforms=None):
        super().__init__(transforms)
        X = np.asarray(X, dtype=np.float32)
        self.images = (X / X.max()).reshape(-1, 8, 8, 1)
        self.labels = np.asarray(y, dtype=np.int64)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, index):
        image = self.apply_transforms(self.images[index])
        return np.asarray(image, dtype=np.float32).reshape(64), self.labels[index]
''',
}
MUST_FAIL = ['test_8_1_rung2_one_scale_whatever_the_brightest_pixel']
HINT = 'Task 8.1, rung 2 (one scale, whatever the brightest pixel)'
NOT_HINTS = ["another sample"]
VISIBLE = True
