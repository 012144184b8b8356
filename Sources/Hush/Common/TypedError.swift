/// An error Hush throws on purpose, typed and worded for an app (``StoreError``, ``SearchError``,
/// ``RankingError``, ``BuildError``): passed through unchanged where the errors of a database call are
/// translated (``StoreError/wrapping(_:path:operation:)``), whichever layer's code the call ran.
protocol TypedError: Error {}
