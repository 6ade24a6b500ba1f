//! The loss curves of a run as an SVG picture.

use plotters::prelude::*;

use crate::TrainError;
use crate::settings::EpochLoss;

const WIDTH: u32 = 800;
const HEIGHT: u32 = 480;

fn plot_error(e: impl std::fmt::Display) -> TrainError {
    TrainError::Io(format!("drawing the loss curves: {e}"))
}

/// Training and validation loss against the epoch, as an SVG document.
pub fn loss_svg(history: &[EpochLoss]) -> Result<String, TrainError> {
    let train: Vec<(f64, f64)> = history
        .iter()
        .enumerate()
        .map(|(i, e)| ((i + 1) as f64, e.train))
        .collect();
    let validation: Vec<(f64, f64)> = history
        .iter()
        .enumerate()
        .filter_map(|(i, e)| e.validation.map(|v| ((i + 1) as f64, v)))
        .collect();
    let losses = train.iter().chain(&validation).map(|&(_, y)| y);
    let low = losses.clone().fold(f64::INFINITY, f64::min);
    let high = losses.fold(f64::NEG_INFINITY, f64::max);
    let (low, high) = if low < high {
        let pad = (high - low) * 0.05;
        (low - pad, high + pad)
    } else {
        (0.0, high.max(0.0) + 0.1)
    };
    let last = history.len().max(2) as f64;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        let mut chart = ChartBuilder::on(&root)
            .caption("Cutoff network: loss per epoch", ("sans-serif", 22))
            .margin(16)
            .x_label_area_size(40)
            .y_label_area_size(80)
            .build_cartesian_2d(1.0..last, low..high)
            .map_err(plot_error)?;
        chart
            .configure_mesh()
            .x_desc("epoch")
            .y_desc("loss (mean squared error)")
            .draw()
            .map_err(plot_error)?;
        for (points, name, colour) in [(train, "training", BLUE), (validation, "validation", RED)] {
            if points.is_empty() {
                continue;
            }
            chart
                .draw_series(LineSeries::new(points, colour.stroke_width(2)))
                .map_err(plot_error)?
                .label(name)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour));
        }
        chart
            .configure_series_labels()
            .background_style(WHITE)
            .border_style(BLACK)
            .draw()
            .map_err(plot_error)?;
        root.present().map_err(plot_error)?;
    }
    Ok(svg)
}
