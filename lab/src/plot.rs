//! Charts of a sweep ([`crate::sweep::Report`]) as SVG files:
//! - `nodes.svg`: nodes against depth on a log scale, one line per row (the median over
//!   positions) with a band over its middle half, and the uniform-tree formulas;
//! - `ebf.svg`: the effective branching factor of each row against depth;
//! - `savings.svg`: each row's nodes as a share of plain alpha-beta's at one depth.
//!
//! Text is written as SVG text (no fonts are embedded), so legends can be searched.

use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;

use super::Algorithm;
use super::sweep::{Report, Summary};

/// Chart size in pixels.
const SIZE: (u32, u32) = (1000, 680);
/// Opacity of the band over the middle half of the positions.
const BAND_OPACITY: f64 = 0.12;
const CAPTION_FONT: (&str, u32) = ("sans-serif", 22);
const LABEL_FONT: (&str, u32) = ("sans-serif", 16);

/// One colour per row, in [`Algorithm::ALL`]'s order, so a row keeps its colour in every
/// chart.
const COLOURS: [RGBColor; 14] = [
    RGBColor(0, 0, 0),       // minimax
    RGBColor(230, 25, 75),   // alphabeta
    RGBColor(245, 130, 48),  // alphabeta-failsoft
    RGBColor(128, 128, 0),   // alphabeta-ordered
    RGBColor(60, 180, 75),   // +killers
    RGBColor(0, 128, 128),   // +history
    RGBColor(70, 240, 240),  // +tt
    RGBColor(0, 130, 200),   // pvs
    RGBColor(0, 0, 128),     // aspiration
    RGBColor(145, 30, 180),  // mtdf
    RGBColor(240, 50, 230),  // etc
    RGBColor(170, 110, 40),  // bstar
    RGBColor(128, 128, 128), // minimal-tree
    RGBColor(220, 190, 0),   // engine
];
const UNIFORM_COLOUR: RGBColor = RGBColor(90, 90, 90);
const KNUTH_MOORE_COLOUR: RGBColor = RGBColor(160, 160, 160);

fn colour(algorithm: Algorithm) -> RGBColor {
    let i = Algorithm::ALL
        .iter()
        .position(|&a| a == algorithm)
        .expect("every algorithm is in ALL");
    COLOURS[i]
}

/// The legend text of a row's line.
pub fn legend(algorithm: Algorithm) -> String {
    match algorithm {
        Algorithm::Engine => "engine (Cutoff's full search)".to_string(),
        Algorithm::MinimalTree => "minimal tree (measured)".to_string(),
        a => a.name().to_string(),
    }
}

/// Legend of the minimax reference line.
pub const UNIFORM_LEGEND: &str = "uniform tree 1 + N + … + N^D (minimax)";
/// Legend of the Knuth–Moore reference line.
pub const KNUTH_MOORE_LEGEND: &str = "Knuth–Moore minimal tree of the uniform tree";

/// 1500 → "1.5k", 2e6 → "2M".
fn si(v: f64) -> String {
    let (scaled, unit) = match v.abs() {
        x if x >= 1e12 => (v / 1e12, "T"),
        x if x >= 1e9 => (v / 1e9, "G"),
        x if x >= 1e6 => (v / 1e6, "M"),
        x if x >= 1e3 => (v / 1e3, "k"),
        _ => (v, ""),
    };
    let text = format!("{scaled:.1}");
    format!("{}{unit}", text.trim_end_matches(".0"))
}

/// Writes the three charts into `dir` (created if need be); returns their paths.
pub fn write_charts(report: &Report, dir: &Path) -> Result<Vec<PathBuf>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let err = |e: DrawingAreaErrorKind<_>| e.to_string();
    let nodes = dir.join("nodes.svg");
    nodes_chart(report, &SVGBackend::new(&nodes, SIZE).into_drawing_area()).map_err(err)?;
    let ebf = dir.join("ebf.svg");
    ebf_chart(report, &SVGBackend::new(&ebf, SIZE).into_drawing_area()).map_err(err)?;
    let mut written = vec![nodes, ebf];
    if report.savings.is_some() {
        let savings = dir.join("savings.svg");
        savings_chart(report, &SVGBackend::new(&savings, SIZE).into_drawing_area()).map_err(err)?;
        written.push(savings);
    }
    Ok(written)
}

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;
type Drawn<'a> = Result<(), DrawingAreaErrorKind<<SVGBackend<'a> as DrawingBackend>::ErrorType>>;

/// The summaries of row `a` at every depth.
fn row(report: &Report, a: usize) -> impl Iterator<Item = &Summary> {
    report.summaries.iter().map(move |depth| &depth[a])
}

/// Share of the x axis past the last depth left free for the legend.
const LEGEND_ROOM: f64 = 1.0;

/// The depths on the x axis, with room for the legend on the right.
fn depth_range(report: &Report) -> std::ops::Range<f64> {
    let first = f64::from(*report.depths.first().unwrap_or(&1));
    let last = f64::from(*report.depths.last().unwrap_or(&1));
    first - 0.2..last + 0.2 + LEGEND_ROOM * (last - first).max(1.0)
}

/// Tick labels on the depth axis: the depths searched, nothing in the legend's room.
fn depth_label(report: &Report, x: f64) -> String {
    let searched = report
        .depths
        .iter()
        .any(|&d| (f64::from(d) - x).abs() < 1e-9);
    if searched {
        format!("{x:.0}")
    } else {
        String::new()
    }
}

fn budget_note(report: &Report) -> String {
    if report.node_budget == u64::MAX {
        String::new()
    } else {
        format!(
            "; rows stop at {} nodes, a point is missing where the median went over",
            si(report.node_budget as f64)
        )
    }
}

fn nodes_chart<'a>(report: &Report, area: &Area<'a>) -> Drawn<'a> {
    area.fill(&WHITE)?;
    let known = report
        .summaries
        .iter()
        .flatten()
        .flat_map(|s| [s.nodes.q1, s.nodes.median, s.nodes.q3])
        .flatten()
        .chain(report.references.iter().map(|r| r.knuth_moore));
    let top = known.clone().fold(10.0f64, f64::max);
    let bottom = known.fold(f64::INFINITY, f64::min).clamp(1.0, top) / 2.0;
    let mut chart = ChartBuilder::on(area)
        .caption(
            format!("Nodes against depth: {}", report.title),
            CAPTION_FONT,
        )
        .margin(16)
        .x_label_area_size(48)
        .y_label_area_size(72)
        .build_cartesian_2d(depth_range(report), (bottom..top * 2.0).log_scale())?;
    chart
        .configure_mesh()
        .x_desc(format!(
            "depth in plies (line: median over positions, band: middle half{})",
            budget_note(report)
        ))
        .y_desc("nodes (log scale)")
        .x_labels(report.depths.len() * 2)
        .x_label_formatter(&|&x| depth_label(report, x))
        .y_label_formatter(&|v| si(*v))
        .axis_desc_style(LABEL_FONT)
        .draw()?;
    // The formulas, dashed: the uniform tree only where it fits the chart.
    let within = |v: f64| v <= top * 2.0;
    let dashed = |points: Vec<(f64, f64)>, colour: RGBColor| {
        DashedLineSeries::new(points, 8, 6, colour.stroke_width(2))
    };
    let uniform: Vec<(f64, f64)> = report
        .references
        .iter()
        .filter(|r| within(r.uniform))
        .map(|r| (f64::from(r.depth), r.uniform))
        .collect();
    chart
        .draw_series(dashed(uniform, UNIFORM_COLOUR))?
        .label(UNIFORM_LEGEND)
        .legend(|(x, y)| {
            PathElement::new(vec![(x, y), (x + 24, y)], UNIFORM_COLOUR.stroke_width(2))
        });
    let knuth_moore: Vec<(f64, f64)> = report
        .references
        .iter()
        .map(|r| (f64::from(r.depth), r.knuth_moore))
        .collect();
    chart
        .draw_series(dashed(knuth_moore, KNUTH_MOORE_COLOUR))?
        .label(KNUTH_MOORE_LEGEND)
        .legend(|(x, y)| {
            PathElement::new(
                vec![(x, y), (x + 24, y)],
                KNUTH_MOORE_COLOUR.stroke_width(2),
            )
        });
    for (a, &algorithm) in report.algorithms.iter().enumerate() {
        let c = colour(algorithm);
        // The band: up the first quartiles, back down the third.
        let q1: Vec<(f64, f64)> = row(report, a)
            .filter_map(|s| Some((f64::from(s.depth), s.nodes.q1?)))
            .collect();
        let q3: Vec<(f64, f64)> = row(report, a)
            .filter_map(|s| Some((f64::from(s.depth), s.nodes.q3?)))
            .collect();
        if q3.len() >= 2 {
            let band: Vec<(f64, f64)> = q1
                .iter()
                .take(q3.len())
                .chain(q3.iter().rev())
                .copied()
                .collect();
            chart.draw_series(std::iter::once(Polygon::new(band, c.mix(BAND_OPACITY))))?;
        }
        let medians: Vec<(f64, f64)> = row(report, a)
            .filter_map(|s| Some((f64::from(s.depth), s.nodes.median?)))
            .collect();
        chart
            .draw_series(LineSeries::new(medians, c.stroke_width(2)).point_size(3))?
            .label(legend(algorithm))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], c.stroke_width(3)));
    }
    draw_legend(&mut chart)?;
    area.present()
}

/// The legend of a line chart, in the same place and style on every chart.
fn draw_legend<'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, SVGBackend<'a>, CT>,
) -> Drawn<'a> {
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(LABEL_FONT)
        .draw()
}

fn ebf_chart<'a>(report: &Report, area: &Area<'a>) -> Drawn<'a> {
    area.fill(&WHITE)?;
    let top = report
        .summaries
        .iter()
        .flatten()
        .filter_map(|s| s.ebf)
        .fold(1.0f64, f64::max);
    let mut chart = ChartBuilder::on(area)
        .caption(
            format!("Effective branching factor: {}", report.title),
            CAPTION_FONT,
        )
        .margin(16)
        .x_label_area_size(48)
        .y_label_area_size(64)
        .build_cartesian_2d(depth_range(report), 0.0..top * 1.1)?;
    chart
        .configure_mesh()
        .x_desc(format!(
            "depth D in plies (median nodes over positions{})",
            budget_note(report)
        ))
        .y_desc("effective branching factor: nodes^(1/D)")
        .x_labels(report.depths.len() * 2)
        .x_label_formatter(&|&x| depth_label(report, x))
        .axis_desc_style(LABEL_FONT)
        .draw()?;
    for (a, &algorithm) in report.algorithms.iter().enumerate() {
        let c = colour(algorithm);
        let points: Vec<(f64, f64)> = row(report, a)
            .filter_map(|s| Some((f64::from(s.depth), s.ebf?)))
            .collect();
        chart
            .draw_series(LineSeries::new(points, c.stroke_width(2)).point_size(3))?
            .label(legend(algorithm))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], c.stroke_width(3)));
    }
    draw_legend(&mut chart)?;
    area.present()
}

fn savings_chart<'a>(report: &Report, area: &Area<'a>) -> Drawn<'a> {
    let Some(savings) = &report.savings else {
        return Ok(());
    };
    area.fill(&WHITE)?;
    let bars: Vec<(Algorithm, f64)> = savings
        .ratios
        .iter()
        .filter_map(|&(a, r)| Some((a, r? * 100.0)))
        .collect();
    let high = bars.iter().map(|b| b.1).fold(100.0f64, f64::max) * 4.0;
    let low = bars.iter().map(|b| b.1).fold(100.0f64, f64::min) / 2.0;
    let n = bars.len() as f64;
    let mut chart = ChartBuilder::on(area)
        .caption(
            format!(
                "Share of alpha-beta's nodes at depth {}: {}",
                savings.depth, report.title
            ),
            CAPTION_FONT,
        )
        .margin(16)
        .x_label_area_size(48)
        .y_label_area_size(8)
        .build_cartesian_2d((low..high).log_scale(), -0.5..n - 0.5)?;
    chart
        .configure_mesh()
        .x_desc("median over positions of each row's nodes / plain alpha-beta's (log scale)")
        .x_label_formatter(&|v| format!("{}%", si(*v)))
        .y_labels(0)
        .disable_y_mesh()
        .axis_desc_style(LABEL_FONT)
        .draw()?;
    for (i, &(algorithm, percent)) in bars.iter().enumerate() {
        let y = n - 1.0 - i as f64;
        let c = colour(algorithm);
        chart.draw_series(std::iter::once(Rectangle::new(
            [(low, y - 0.35), (percent, y + 0.35)],
            c.filled(),
        )))?;
        chart.draw_series(std::iter::once(Text::new(
            format!("{}  {percent:.1}%", legend(algorithm)),
            (percent * 1.08, y + 0.2),
            LABEL_FONT,
        )))?;
    }
    // Plain alpha-beta itself: the 100 % line.
    chart.draw_series(std::iter::once(PathElement::new(
        vec![(100.0, -0.5), (100.0, n - 0.5)],
        colour(Algorithm::AlphaBeta).stroke_width(2),
    )))?;
    area.present()
}
