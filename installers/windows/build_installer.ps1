# Build the Windows installer from the PyInstaller build, signing when a certificate is set.
#   pwsh installers/windows/build_installer.ps1 -Version 0.1.0
# Signing (optional): WINDOWS_CERT_PFX (path to a .pfx) and WINDOWS_CERT_PASSWORD. Without
# them the installer is built unsigned and Windows SmartScreen warns on first run.
param(
    [Parameter(Mandatory = $true)][string]$Version,
    [string]$SourceDir = "dist\Harness Desk"
)
$ErrorActionPreference = "Stop"
$root = Resolve-Path (Join-Path $PSScriptRoot "..\..")
Set-Location $root

$iscc = @(
    "${env:ProgramFiles(x86)}\Inno Setup 6\ISCC.exe",
    "$env:ProgramFiles\Inno Setup 6\ISCC.exe",
    "$env:LOCALAPPDATA\Programs\Inno Setup 6\ISCC.exe"
) | Where-Object { Test-Path $_ } | Select-Object -First 1
if (-not $iscc) { throw "Inno Setup 6 is not installed (choco install innosetup)." }

$arguments = @("/DAppVersion=$Version", "/DSourceDir=$root\$SourceDir")
if ($env:WINDOWS_CERT_PFX -and (Test-Path $env:WINDOWS_CERT_PFX)) {
    $signtool = Get-ChildItem "${env:ProgramFiles(x86)}\Windows Kits\10\bin\*\x64\signtool.exe" |
        Sort-Object FullName -Descending | Select-Object -First 1
    if (-not $signtool) { throw "signtool.exe (Windows SDK) was not found." }
    # The app's own executable first, so the installed program is signed too.
    & $signtool.FullName sign /fd sha256 /tr http://timestamp.digicert.com /td sha256 `
        /f $env:WINDOWS_CERT_PFX /p $env:WINDOWS_CERT_PASSWORD "$SourceDir\Harness Desk.exe"
    if ($LASTEXITCODE -ne 0) { throw "Signing Harness Desk.exe failed." }
    # Inno Setup replaces $q with a quote and $f with the file to sign; no literal quotes
    # need to survive PowerShell's argument passing.
    $command = "`$q$($signtool.FullName)`$q sign /fd sha256 /tr http://timestamp.digicert.com " +
        "/td sha256 /f `$q$($env:WINDOWS_CERT_PFX)`$q /p `$q$($env:WINDOWS_CERT_PASSWORD)`$q `$f"
    $arguments += @("/DSign", "/Ssigntool=$command")
} else {
    Write-Host "No signing certificate (WINDOWS_CERT_PFX): building an unsigned installer."
}
& $iscc @arguments "installers\windows\harness-desk.iss"
if ($LASTEXITCODE -ne 0) { throw "Inno Setup failed ($LASTEXITCODE)." }
Get-Item "dist\HarnessDesk-$Version-windows-x64-setup.exe"
