"""DigitsDataset divides by 16 and flattens right, but never converts to float32: X / 16 of
load_digits' float64 pixels stays float64, needle's default dtype is float32."""
NOTEBOOK = "08_train_digits"
CELLS = {
    "task8_1_digits_dataset": '''
class DigitsDataset(ndl.data.Dataset):
    def __init__(self, X, y, transforms=None):
        super().__init__(transforms)
        self.images = np.asarray(X).reshape(-1, 8, 8, 1) / 16
        self.labels = np.asarray(y, dtype=np.int64)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, index):
        image = self.apply_transforms(self.images[index])
        return image.reshape(64), self.labels[index]
''',
}
MUST_FAIL = ['test_8_1_rung4_float32_features']
HINT = 'Task 8.1, rung 4 (float32 features)'
VISIBLE = True
