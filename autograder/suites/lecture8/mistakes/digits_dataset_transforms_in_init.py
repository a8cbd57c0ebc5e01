"""DigitsDataset applies the transforms once, to every image in __init__: a random transform
then gives the same shifted digit in every epoch instead of a new one at every read."""
NOTEBOOK = "08_train_digits"
CELLS = {
    "task8_1_digits_dataset": '''
class DigitsDataset(ndl.data.Dataset):
    def __init__(self, X, y, transforms=None):
        super().__init__(transforms)
        images = np.asarray(X, dtype=np.float32).reshape(-1, 8, 8, 1) / 16
        self.features = np.stack([self.apply_transforms(image).reshape(64) for image in images])
        self.labels = np.asarray(y, dtype=np.int64)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, index):
        return self.features[index], self.labels[index]
''',
}
MUST_FAIL = ['test_8_1_rung7_no_transform_while_constructing']
HINT = 'Task 8.1, rung 7 (no transform while constructing)'
VISIBLE = True
