@_exported import HushEmbedding
