//! Saving and reading a run's latency histograms in the HdrHistogram interval
//! log format (V2, deflate-compressed), so runs can be merged or re-analysed by
//! any HdrHistogram tool later.
//!
//! Values are microseconds; each interval is written with the tag `latency`,
//! and in open loop also `corrected` (from the intended send time).

use std::io::{Cursor, Write};
use std::time::{Duration, UNIX_EPOCH};

use base64::Engine as _;
use hdrhistogram::serialization::interval_log::{
    IntervalLogIterator, IntervalLogWriterBuilder, LogEntry, Tag,
};
use hdrhistogram::serialization::{Deserializer, V2DeflateSerializer};

use crate::report::{LatencyInterval, LoadReport};

const LATENCY_TAG: &str = "latency";
const CORRECTED_TAG: &str = "corrected";

#[derive(Debug, thiserror::Error)]
pub enum HdrLogError {
    #[error("writing the HdrHistogram log: {0}")]
    Write(String),
    #[error("reading the HdrHistogram log: {0}")]
    Read(String),
}

/// Writes the report's per-second histograms as an interval log.
pub fn write_hdr_log(report: &LoadReport, mut out: impl Write) -> Result<(), HdrLogError> {
    let write_err = |e: &dyn std::fmt::Display| HdrLogError::Write(e.to_string());
    let mut serializer = V2DeflateSerializer::new();
    let mut builder = IntervalLogWriterBuilder::new();
    builder
        .add_comment(&format!(
            "reprise load {} (values in microseconds)",
            report.url
        ))
        .with_base_time(
            UNIX_EPOCH + Duration::try_from_secs_f64(report.started_unix_s).unwrap_or_default(),
        )
        .with_max_value_divisor(1000.0);
    let mut writer = builder
        .begin_log_with(&mut out, &mut serializer)
        .map_err(|e| write_err(&e))?;
    for interval in &report.intervals {
        let mut histograms = vec![(LATENCY_TAG, &interval.latency)];
        if let Some(corrected) = &interval.corrected {
            histograms.push((CORRECTED_TAG, corrected));
        }
        for (tag, histogram) in histograms {
            writer
                .write_histogram(histogram, interval.start, interval.duration, Tag::new(tag))
                .map_err(|e| write_err(&format!("{e:?}")))?;
        }
    }
    drop(writer);
    out.flush().map_err(|e| write_err(&e))
}

/// Reads an interval log written by [`write_hdr_log`] back into intervals.
pub fn read_hdr_log(log: &[u8]) -> Result<Vec<LatencyInterval>, HdrLogError> {
    let mut deserializer = Deserializer::new();
    let mut intervals: Vec<LatencyInterval> = Vec::new();
    for entry in IntervalLogIterator::new(log) {
        let entry = entry.map_err(|e| HdrLogError::Read(format!("{e:?}")))?;
        let LogEntry::Interval(interval) = entry else {
            continue;
        };
        let encoded = base64::engine::general_purpose::STANDARD
            .decode(interval.encoded_histogram())
            .map_err(|e| HdrLogError::Read(e.to_string()))?;
        let histogram = deserializer
            .deserialize(&mut Cursor::new(encoded))
            .map_err(|e| HdrLogError::Read(format!("{e:?}")))?;
        match interval.tag().map(|t| t.as_str()) {
            Some(CORRECTED_TAG) => match intervals.last_mut() {
                Some(last) if last.start == interval.start_timestamp() => {
                    last.corrected = Some(histogram)
                }
                _ => {
                    return Err(HdrLogError::Read(
                        "a corrected histogram without its latency histogram".into(),
                    ));
                }
            },
            _ => intervals.push(LatencyInterval {
                start: interval.start_timestamp(),
                duration: interval.duration(),
                latency: histogram,
                corrected: None,
            }),
        }
    }
    Ok(intervals)
}
