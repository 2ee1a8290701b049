"""The run summary and its documents: the summary model, Markdown, HTML, ODT, PDF and the chart."""
