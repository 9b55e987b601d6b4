"""What is derived from stored matches: who was winning (outlook, review), re-scoring under
changed rules, and ratings."""
