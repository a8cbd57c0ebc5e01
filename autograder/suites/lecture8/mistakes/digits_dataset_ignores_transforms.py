"""DigitsDataset stores the transforms (super().__init__) but never applies them in __getitem__."""
NOTEBOOK = "08_train_digits"
CELLS = {
    "task8_1_digits_dataset": '''
class DigitsDataset(ndl.data.Dataset):
    def __init__(self, X, y, transforms=None):
        super().__init__(transforms)
        self.X = np.asarray(X, dtype=np.float32) / 16
        self.y = np.asarray(y, dtype=np.int64)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, index):
        return self.X[index], self.y[index]
''',
}
MUST_FAIL = ['test_8_1_rung8_the_transform_given_the_image_in_h_w_c_layout']
HINT = 'Task 8.1, rung 8 (the transform given the image in (H, W, C) layout)'
VISIBLE = True
