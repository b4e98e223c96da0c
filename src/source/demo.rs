//! The bundled demo dataset: `assets/demo.ndjson.gz`, made by `callscope demo-data` with the
//! generator's demo parameters (a test keeps the two equal).

use std::sync::Arc;

use super::dump::{self, DumpFile};
use crate::store::{Batch, Blob};

/// The gzipped NDJSON of the demo, built into the binary so `--demo` works anywhere.
pub const DEMO_GZ: &[u8] = include_bytes!("../../assets/demo.ndjson.gz");

/// How the demo is named in headers and messages.
pub const DEMO_NAME: &str = "demo dataset";

/// Reads the demo dataset into one batch.
pub fn load() -> Batch {
    let mut decoder = flate2::read::GzDecoder::new(DEMO_GZ);
    let mut bytes = Vec::new();
    // The asset is part of the binary and checked by the tests; a failure here is a build defect.
    std::io::Read::read_to_end(&mut decoder, &mut bytes)
        .expect("the bundled demo dataset is valid gzip");
    let (batch, problems) = dump::read_file(DumpFile {
        path: DEMO_NAME.into(),
        blob: Arc::new(Blob::Owned(bytes)),
    });
    debug_assert!(problems.is_empty(), "{problems:?}");
    batch
}
