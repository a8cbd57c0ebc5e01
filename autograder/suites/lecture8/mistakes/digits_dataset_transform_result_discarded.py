"""DigitsDataset calls self.apply_transforms(image) in __getitem__ but drops its result (no
assignment): the transforms run, every read, on an (8, 8, 1) image, and change nothing."""
NOTEBOOK = "08_train_digits"
CELLS = {
    "task8_1_digits_dataset": '''
class DigitsDataset(ndl.data.Dataset):
    def __init__(self, X, y, transforms=None):
        super().__init__(transforms)
        self.images = np.asarray(X, dtype=np.float32).reshape(-1, 8, 8, 1) / np.float32(16)
        self.labels = np.asarray(y, dtype=np.int64)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, index):
        image = self.images[index]
        self.apply_transforms(image)
        return image.reshape(64), self.labels[index]
''',
}
MUST_FAIL = ['test_8_1_rung9_the_transformed_image_as_the_features']
HINT = 'Task 8.1, rung 9 (the transformed image as the features)'
VISIBLE = True
