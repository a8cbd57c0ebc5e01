"""DigitsDataset turns the labels into float32 along with the features: class indices become
3.0 instead of 3."""
NOTEBOOK = "08_train_digits"
CELLS = {
    "task8_1_digits_dataset": '''
class DigitsDataset(ndl.data.Dataset):
    def __init__(self, X, y, transforms=None):
        super().__init__(transforms)
        self.images = np.asarray(X, dtype=np.float32).reshape(-1, 8, 8, 1) / 16
        self.labels = np.asarray(y, dtype=np.float32)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, index):
        image = self.apply_transforms(self.images[index])
        return image.reshape(64), self.labels[index]
''',
}
MUST_FAIL = ['test_8_1_rung5_an_integer_label']
HINT = 'Task 8.1, rung 5 (an integer label)'
VISIBLE = True
