//! Protocol transcripts against the real `pbrain-tengen` binary.
