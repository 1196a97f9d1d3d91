"""Text: the tokenizer (words, CJK characters), alignment and the text diff."""
